import ReconCore

/// The order the parts read objects in: by creation time, then id, the ids compared byte by byte as SQLite's `BINARY`
/// collation and the PostgreSQL history's `"C"` compare them. The index on `created` gives the rows by creation time
/// only; the few that share a second are put in id order here rather than by an `ORDER BY created, id`, which had
/// SQLite copy every row into a sort of its own (docs/BENCHMARKS.md, "Pages in the index's order").
enum CreationOrder {
    /// Whether `a` comes before `b`.
    static func precedes(_ a: (created: Int64, id: String), _ b: (created: Int64, id: String)) -> Bool {
        a.created != b.created ? a.created < b.created : idPrecedes(a.id, b.id)
    }

    /// Whether id `a` comes before id `b` among the objects of one second: byte by byte.
    static func idPrecedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// Sorts `facts`, already in creation order, by creation time, then id: only when two of one second are out of
    /// id order, which most pages have none of.
    static func sort<Facts: KindObject>(_ facts: inout [Facts]) {
        let inOrder = facts.withUnsafeBufferPointer { facts in
            facts.indices.dropFirst().allSatisfy { index in
                !precedes((facts[index].created, facts[index].id), (facts[index - 1].created, facts[index - 1].id))
            }
        }
        if !inOrder { facts.sort { precedes(($0.created, $0.id), ($1.created, $1.id)) } }
    }

    /// The ids of the objects created in one second, as a pass in creation order meets them.
    struct Second {
        var created: Int64 = .min
        var ids: [String] = []

        /// The second's ids in id order.
        func idsInOrder() -> [String] {
            ids.count < 2 ? ids : ids.sorted(by: CreationOrder.idPrecedes)
        }
    }
}
