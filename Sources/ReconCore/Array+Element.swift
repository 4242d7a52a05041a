extension Array {
    /// What `body` makes of the element at `index`, read where it is through a pointer valid only during `body`:
    /// `self[index]` copies the whole element first (retaining each of its strings): a table's row fill read every row
    /// of millions that way, and a part's lookups every fact they found (docs/BENCHMARKS.md, "Fewer copies"). `index`
    /// is one of the array's.
    public func withElement<Result>(at index: Int, _ body: (UnsafePointer<Element>) throws -> Result) rethrows -> Result
    {
        try withUnsafeBufferPointer { elements in
            guard let first = elements.baseAddress, elements.indices.contains(index) else {
                preconditionFailure("index \(index) is outside an array of \(elements.count)")
            }
            return try body(first + index)
        }
    }
}
