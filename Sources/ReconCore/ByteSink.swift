/// Where the writers append the bytes of a report's text: an array, or a row's buffer of its own (`ByteBuffer` in
/// Reports). The number printers (``UInt64/appendDecimalDigits(minimumWidth:to:)``, ``MinorUnitFormatter``) write to
/// either, so that a report's millions of cells reach their file without an array's checks per append
/// (docs/BENCHMARKS.md, "The interner's slots, the lookups' hash and the rows' bytes").
public protocol ByteSink: ~Copyable {
    /// Adds `byte` at the end.
    mutating func append(_ byte: UInt8)
    /// Adds `bytes`, in order, at the end.
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteSink where Element == UInt8 {}
