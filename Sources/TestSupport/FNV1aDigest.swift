/// FNV-1a (64 bits) of bytes, in 16 hexadecimal digits: a digest that is stable across runs, platforms and
/// versions, for tests that pin bytes (shipped migrations, the sandbox's pages, the reports).
public struct FNV1aDigest: Sendable {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    /// The digest of `bytes` alone.
    public init(_ bytes: some Sequence<UInt8>) {
        add(bytes)
    }

    /// Adds `bytes`.
    public mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
    }

    /// Adds `label`, then `bytes`, each ended by a zero byte, so that moving bytes from one to the next changes the
    /// digest.
    public mutating func add(_ label: String, _ bytes: some Sequence<UInt8>) {
        add(label.utf8)
        add([0])
        add(bytes)
        add([0])
    }

    /// The digest so far.
    public var hex: String {
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
