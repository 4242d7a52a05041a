import ReconCore

/// Up to eight bytes held in one word: appended without a reference to count, unlike an array of them. A sheet's
/// cells each start with their column's name and their row's number (`<c r="AB12"`): held as arrays, the two were
/// retained and released once a cell (docs/BENCHMARKS.md, "Fewer copies").
struct ShortBytes {
    /// The most bytes a value holds.
    static let capacity = 8

    /// The bytes, the first in the lowest byte of the word.
    private var word: UInt64 = 0
    /// How many bytes it holds.
    private(set) var count = 0

    /// No bytes.
    init() {}

    /// `bytes`, at most ``capacity`` of them.
    init(_ bytes: some Collection<UInt8>) {
        precondition(bytes.count <= Self.capacity, "at most \(Self.capacity) bytes")
        for byte in bytes { append(byte) }
    }

    /// Adds `byte` at the end; the value holds fewer than ``capacity`` bytes.
    mutating func append(_ byte: UInt8) {
        precondition(count < Self.capacity, "at most \(Self.capacity) bytes")
        word |= UInt64(byte) << (8 * UInt64(count))
        count += 1
    }

    /// Appends the bytes, in order, to `bytes`.
    func append<Sink: ByteSink & ~Copyable>(to bytes: inout Sink) {
        withUnsafeBytes(of: word.littleEndian) { word in
            bytes.append(
                contentsOf: UnsafeBufferPointer(start: word.bindMemory(to: UInt8.self).baseAddress, count: count))
        }
    }
}
