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

extension Array {
    /// `body` on each element in order, read where it is through a pointer valid only during `body`: `for element in
    /// self` copies each element first (retaining each of its strings), though a rule's filter turns most of them
    /// away (docs/BENCHMARKS.md, "The interner's slots, the lookups' hash and the rows' bytes"). Only for loops that
    /// keep few: where `body` passes `pointee` to a function that may change what holds the array, the compiler
    /// copies the element once a call, not once an element. The array is the caller's own copy (a local), so that
    /// `body` may change whatever held it.
    public func forEachInPlace(_ body: (UnsafePointer<Element>) throws -> Void) rethrows {
        try withUnsafeBufferPointer { elements in
            guard let first = elements.baseAddress else { return }
            for index in elements.indices { try body(first + index) }
        }
    }
}
