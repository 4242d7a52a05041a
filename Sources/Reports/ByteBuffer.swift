import ReconCore

/// Bytes in memory of their own, appended with a bounds check and a copy: a report row's XML, a CSV file's next
/// megabyte. An array spent more on each append (a uniqueness check, a capacity check, the end of a mutation, a
/// generic copy) than on the bytes themselves: a fifth of the report writer's thread for millions of short appends
/// (docs/BENCHMARKS.md, "The interner's slots, the lookups' hash and the rows' bytes").
struct ByteBuffer: ~Copyable, ByteSink {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes it holds.
    private(set) var count = 0

    /// Empty, with room for `capacity` bytes before it grows.
    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        start[count] = byte
        count += 1
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        (start + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Adds the text's UTF-8 bytes.
    mutating func append(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Forgets the bytes, keeping the memory.
    mutating func removeAll() { count = 0 }

    /// `body`'s result on the bytes held, valid only during `body`.
    func withBytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(start: start, count: count))
    }

    private mutating func grow(toHold needed: Int) {
        let grown = max(2 * capacity, needed)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.initialize(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = grown
    }
}
