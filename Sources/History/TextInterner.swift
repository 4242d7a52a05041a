#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The texts a part's reader has made lately, found again by their bytes: a part names each id several times (a
/// charge's id is also its balance transaction's `source`, its transfer's `source_transaction`, its fee's
/// `originating_charge`, its PaymentIntent's `latest_charge`), and each was a string of its own, allocated, freed with
/// the part and compared byte by byte by the rules. Interned, a repeated id is one string: no allocation, and the
/// rules' comparisons of the same string end at its storage (docs/BENCHMARKS.md, "Fewer copies").
///
/// Only texts longer than a string holds inline (15 bytes) are kept. At most ``limit`` are held: then all are let go
/// and it starts again, so memory stays bounded whatever a reader reads. One reader's: not safe to share.
final class TextInterner {
    /// How many texts are held at most.
    static let limit = 1 << 16

    /// A held text and its hash, side by side: a probe compares the hashes and reaches a string's bytes only when they
    /// are equal. Comparing the bytes of every string met on the way (a cache miss in another string's storage
    /// each) made interning cost a tenth of the reconcile's CPU (docs/BENCHMARKS.md, "Smaller parts").
    private struct Slot {
        /// ``hash(_:)`` of the text made odd, never 0; 0: the slot is empty.
        var hash: UInt64
        var text: String?
    }

    /// Open addressing, twice ``limit`` slots, in memory of its own (no bounds or exclusivity check per probe).
    private let slots: UnsafeMutablePointer<Slot>
    private let mask: Int
    private var count = 0

    init() {
        let capacity = 2 * Self.limit
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(hash: 0, text: nil), count: capacity)
        mask = capacity - 1
    }

    deinit {
        slots.deinitialize(count: mask + 1)
        slots.deallocate()
    }

    /// The string of the UTF-8 bytes `bytes` (invalid sequences repaired, as `String(decoding:as:)` does): one
    /// held already when it has the same bytes, else a new one, held from now on.
    func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > 15, let base = bytes.baseAddress else { return String(decoding: bytes, as: UTF8.self) }
        let hash = Self.hash(bytes)
        // The slot from the whole hash, the stored hash made odd so that no text's is 0, the empty slot's.
        var slot = Int(truncatingIfNeeded: hash) & mask
        let tag = hash | 1
        while slots[slot].hash != 0 {
            if slots[slot].hash == tag, let text = slots[slot].text, Self.holds(text, base, bytes.count) {
                return text
            }
            slot = (slot + 1) & mask
        }
        if count == Self.limit {
            for index in 0...mask where slots[index].hash != 0 { slots[index] = Slot(hash: 0, text: nil) }
            count = 0
            return text(bytes)
        }
        // Found again only by the same bytes: a text whose invalid bytes were repaired is held, and never found.
        let made = String(decoding: bytes, as: UTF8.self)
        slots[slot] = Slot(hash: tag, text: made)
        count += 1
        return made
    }

    /// Whether `held` is the `count` bytes at `base`.
    private static func holds(_ held: String, _ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        held.utf8.withContiguousStorageIfAvailable { heldBytes in
            guard heldBytes.count == count, let left = heldBytes.baseAddress else { return false }
            return memcmp(left, base, count) == 0
        } ?? held.utf8.elementsEqual(UnsafeBufferPointer(start: base, count: count))
    }

    /// A hash of `bytes` (more than 8 of them) eight bytes at a time: the first and last eight and each eight between,
    /// mixed by multiplication (byte at a time, hashing a 27-byte id cost as much as the allocation it saves).
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        func word(_ offset: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 < bytes.count {
            hash = (hash ^ word(offset)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            offset += 8
        }
        hash = (hash ^ word(bytes.count - 8)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 32)
    }
}
