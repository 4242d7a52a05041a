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

    /// Open addressing, twice ``limit`` slots; `nil`: empty.
    private var slots: [String?]
    private var count = 0
    private let mask: Int

    init() {
        slots = Array(repeating: nil, count: 2 * Self.limit)
        mask = 2 * Self.limit - 1
    }

    /// The string of the UTF-8 bytes `bytes` (invalid sequences repaired, as `String(decoding:as:)` does): one
    /// held already when it has the same bytes, else a new one, held from now on.
    func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > 15 else { return String(decoding: bytes, as: UTF8.self) }
        var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
        while let held = slots[slot] {
            let same =
                held.utf8.withContiguousStorageIfAvailable { heldBytes in
                    guard heldBytes.count == bytes.count, let left = heldBytes.baseAddress,
                        let right = bytes.baseAddress
                    else { return heldBytes.count == bytes.count }
                    return memcmp(left, right, bytes.count) == 0
                } ?? held.utf8.elementsEqual(bytes)
            if same { return held }
            slot = (slot + 1) & mask
        }
        if count == Self.limit {
            for index in slots.indices { slots[index] = nil }
            count = 0
            return text(bytes)
        }
        // Found again only by the same bytes: a text whose invalid bytes were repaired is held, and never found.
        let made = String(decoding: bytes, as: UTF8.self)
        slots[slot] = made
        count += 1
        return made
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
