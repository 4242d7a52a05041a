import ReconCore

extension HistoryGaps {
    /// How many objects of each of `kinds` the history holds created in `span`: the density a range's lists can
    /// expect, read from the span before it (the night before a nightly run), so that a dense list is cut into pieces
    /// that page at once from its first request instead of after its first page (docs/EXTRACTION.md). A span the
    /// history never extracted counts nothing: its lists start whole, as on a fresh history.
    public func objectCounts(
        of kinds: [ObjectKind], createdIn span: Range<Int64>
    ) async throws(HistoryError) -> [ObjectKind: Int] {
        try await readDatabase { db in
            var counts: [ObjectKind: Int] = [:]
            for kind in kinds {
                counts[kind] =
                    try db.value(
                        Int.self, "SELECT COUNT(*) FROM \(kind.entry.table) WHERE created >= ? AND created < ?",
                        [.integer(span.lowerBound), .integer(span.upperBound)]) ?? 0
            }
            return counts
        }
    }
}
