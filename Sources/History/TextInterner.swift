import ReconCore

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

    /// Open addressing, twice ``limit`` slots of four bytes each (512 KiB, in memory of its own: no bounds or
    /// exclusivity check per probe). A slot holds the top ``tagBits`` bits of its text's hash above the text's place
    /// in ``texts`` plus one; 0: the slot is empty. A probe compares the tags and reaches a string's bytes only when
    /// they are equal. Slots of 24 bytes (the whole hash and the string side by side) made a table of 3 MiB, and the
    /// first load of a probe, a cache miss, was nine tenths of interning's time (docs/BENCHMARKS.md, "The
    /// interner's slots, the lookups' hash and the rows' bytes"); comparing the bytes of every string met on the way
    /// made interning a tenth of the reconcile's CPU ("Smaller parts").
    private let slots: UnsafeMutablePointer<UInt32>
    /// The texts held, in the order they were first made.
    private let texts: UnsafeMutablePointer<String>
    private let mask: Int
    private var count = 0

    /// The bits of a slot that hold a place in ``texts`` plus one (0 to ``limit``).
    private static let placeBits = 17
    /// The bits of a slot that hold its text's tag.
    private static let tagBits = 32 - placeBits

    init() {
        precondition(Self.limit < 1 << Self.placeBits, "a slot holds every place in texts plus one")
        let capacity = 2 * Self.limit
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        texts = .allocate(capacity: Self.limit)
        mask = capacity - 1
    }

    deinit {
        texts.deinitialize(count: count)
        texts.deallocate()
        slots.deallocate()
    }

    /// The string of the UTF-8 bytes `bytes` (invalid sequences repaired, as `String(decoding:as:)` does): one
    /// held already when it has the same bytes, else a new one, held from now on.
    func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > 15, let base = bytes.baseAddress else { return String(decoding: bytes, as: UTF8.self) }
        let hash = ByteHash.of(bytes)
        // The slot from the hash's low bits, the tag from its high ones.
        var slot = Int(truncatingIfNeeded: hash) & mask
        let tag = UInt32(truncatingIfNeeded: hash >> UInt64(64 - Self.tagBits)) << UInt32(Self.placeBits)
        let placeMask: UInt32 = (1 << UInt32(Self.placeBits)) - 1
        while slots[slot] != 0 {
            let held = slots[slot]
            if held & ~placeMask == tag {
                let text = texts[Int(held & placeMask) - 1]
                if Self.holds(text, base, bytes.count) { return text }
            }
            slot = (slot + 1) & mask
        }
        if count == Self.limit {
            texts.deinitialize(count: count)
            slots.update(repeating: 0, count: mask + 1)
            count = 0
            return text(bytes)
        }
        // Found again only by the same bytes: a text whose invalid bytes were repaired is held, and never found.
        let made = String(decoding: bytes, as: UTF8.self)
        (texts + count).initialize(to: made)
        count += 1
        slots[slot] = tag | UInt32(count)
        return made
    }

    /// Whether `held` is the `count` bytes at `base`.
    private static func holds(_ held: String, _ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        held.utf8.withContiguousStorageIfAvailable { heldBytes in
            guard heldBytes.count == count, let left = heldBytes.baseAddress else { return false }
            return memcmp(left, base, count) == 0
        } ?? held.utf8.elementsEqual(UnsafeBufferPointer(start: base, count: count))
    }
}
