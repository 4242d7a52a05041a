import ReconCore

/// Facts by id, the first of a duplicated id winning: the facts stay in the part's array, the lookup keeps only
/// their positions (copying a fact retains each of its strings; a part's lookups used to copy every fact twice).
///
/// The positions are an open-addressing table of its own, keyed by the facts' ids where they are: a `[String: Int]`
/// retained every id it was given as a key, the first touch of strings another thread had just made, and released
/// them all again with the part (a sixth of building a part's lookups; docs/BENCHMARKS.md, "Fewer copies"). The ids
/// are hashed by ``ByteHash``, not SipHash (`String.hashValue`): "The interner's slots, the lookups' hash and the rows'
/// bytes".
struct FactLookup<Facts: ObjectFacts> {
    /// Every fact given, duplicates included.
    private let facts: [Facts]
    /// Slot → the position of the first fact whose id hashes there (probing on), plus one; 0: empty. A power of two
    /// at least twice as many slots as facts, so that probes stay short.
    private let slots: [Int]
    /// The positions kept, in order, when some id is duplicated; `nil` when none is (every position is kept).
    private let kept: [Int]?

    init(_ facts: [Facts]) {
        self.facts = facts
        var capacity = 2
        while capacity < 2 * facts.count { capacity *= 2 }
        var slots = [Int](repeating: 0, count: capacity)
        var kept: [Int]?
        let mask = capacity - 1
        // Through the buffer, each fact where it is: `facts[position].id` copied the whole fact (retaining each of
        // its strings) to read its id.
        facts.withUnsafeBufferPointer { facts in
            guard let first = facts.baseAddress else { return }
            for position in facts.indices {
                let id = (first + position).pointee.id
                var slot = Int(truncatingIfNeeded: ByteHash.of(id)) & mask
                var duplicate = false
                while slots[slot] != 0 {
                    if (first + slots[slot] - 1).pointee.id == id {
                        duplicate = true
                        break
                    }
                    slot = (slot + 1) & mask
                }
                if duplicate {
                    if kept == nil { kept = Array(0..<position) }
                    continue
                }
                slots[slot] = position + 1
                kept?.append(position)
            }
        }
        self.slots = slots
        self.kept = kept
    }

    /// The position of the first fact with `id`, if any.
    private func position(of id: String) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: ByteHash.of(id)) & mask
        return facts.withUnsafeBufferPointer { facts -> Int? in
            guard let first = facts.baseAddress else { return nil }
            while slots[slot] != 0 {
                let position = slots[slot] - 1
                if (first + position).pointee.id == id { return position }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// Whether some fact has `id` (``subscript(_:)`` compared with `nil` copied the fact, retaining each of its
    /// strings).
    func contains(_ id: String) -> Bool { position(of: id) != nil }

    /// The first fact with `id`, if any.
    subscript(id: String) -> Facts? {
        position(of: id).map { facts[$0] }
    }

    /// What `read` takes from the first fact with `id`, read where the fact is, through a pointer valid only during
    /// `read` (the subscript copies the fact, retaining each of its strings); `nil` when there is none.
    func read<Value>(_ id: String, _ read: (UnsafePointer<Facts>) throws -> Value) rethrows -> Value? {
        try position(of: id).map { try facts.withElement(at: $0, read) }
    }

    /// How many distinct ids.
    var count: Int { kept?.count ?? facts.count }

    /// The facts, each id once, in the order given.
    var unique: [Facts] {
        kept.map { $0.map { facts[$0] } } ?? facts
    }
}
