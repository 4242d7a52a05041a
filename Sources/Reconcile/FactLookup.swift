import ReconCore

/// Facts by id, the first of a duplicated id winning: the facts stay in the part's array, the lookup keeps only
/// their positions (copying a fact retains each of its strings; a part's lookups used to copy every fact twice).
struct FactLookup<Facts: ObjectFacts> {
    /// Every fact given, duplicates included.
    private let facts: [Facts]
    private let positions: [String: Int]

    init(_ facts: [Facts]) {
        self.facts = facts
        var positions: [String: Int] = [:]
        positions.reserveCapacity(facts.count)
        // By index: `enumerated()` would copy every fact (and retain each of its strings) on the way. Last to first,
        // each id's first position written last: one hash an id (asking first, then writing, hashed each twice).
        for position in facts.indices.reversed() { positions[facts[position].id] = position }
        self.positions = positions
    }

    /// The first fact with `id`, if any.
    subscript(id: String) -> Facts? {
        positions[id].map { facts[$0] }
    }

    /// How many distinct ids.
    var count: Int { positions.count }

    /// The facts, each id once, in the order given.
    var unique: [Facts] {
        positions.count == facts.count ? facts : facts.enumerated().filter { positions[$1.id] == $0 }.map(\.element)
    }
}
