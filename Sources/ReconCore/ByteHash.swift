/// A hash of a text's UTF-8 bytes eight bytes at a time, for the tables a reconcile probes per object (the texts a
/// part's reader interns, the rules' lookups of facts by id). Not Swift's `Hasher`:
/// `String.hashValue` runs SipHash over the bytes with a seed per process, about as costly for a 27-byte id as the
/// probe it serves (docs/BENCHMARKS.md, "The interner's slots, the lookups' hash and the rows' bytes"). The same bytes
/// always hash the same, in every process: use it only in tables of one process's making, never for anything an
/// adversary chooses the keys of and a slow probe would hurt.
public enum ByteHash {
    /// The hash of `bytes`: each eight bytes mixed in by multiplication, the last eight (or the fewer there are) put
    /// through splitmix64's finalizer, so that every bit of them reaches the low bits a table's slot is taken from.
    /// (A multiplication alone carries a word's high bytes, where ids of one platform differ, only upwards: 4,096
    /// such ids fell in 5 slots of 8,192; `ByteHashTests`.)
    @inlinable
    public static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        func word(_ offset: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        if bytes.count < 8 {
            var last: UInt64 = 0
            for (index, byte) in bytes.enumerated() { last |= UInt64(byte) << UInt64(8 * index) }
            hash ^= last
        } else {
            var offset = 0
            while offset + 8 < bytes.count {
                hash = (hash ^ word(offset)) &* 0xBF58_476D_1CE4_E5B9
                hash ^= hash >> 29
                offset += 8
            }
            hash ^= word(bytes.count - 8)
        }
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }

    /// The hash of `text`'s UTF-8 bytes (``of(_:)-(UnsafeBufferPointer<UInt8>)``): read in place for a native or inline
    /// string, copied first only for a bridged one.
    @inlinable
    public static func of(_ text: String) -> UInt64 {
        if let hash = text.utf8.withContiguousStorageIfAvailable({ of($0) }) { return hash }
        return Array(text.utf8).withUnsafeBufferPointer { of($0) }
    }
}
