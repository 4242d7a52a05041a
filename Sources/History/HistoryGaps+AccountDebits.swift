import ReconCore

extension HistoryGaps {
    /// The links of the account debits created in `[from, to)` (``ChargeFacts/debitLinks(keys:)``) that name nothing
    /// the history holds, by debit, then link.
    public func unmatchedDebitLinks(
        from: Int64, to: Int64, keys: [String]
    ) async throws(HistoryError) -> [UnmatchedDebitLink] {
        try await readDatabase { db in
            let debits = try HistoryObjects.accountDebits(db, created: from..<to)
            let links = Set(debits.flatMap { $0.debitLinks(keys: keys) })
            guard !links.isEmpty else { return [] }
            let named = SQLValue.text(IDList.json(Array(links)))
            let idSet = db.dialect.idSet
            let held = Set(
                try db.all(
                    """
                    SELECT id FROM charges WHERE id IN \(idSet)
                    UNION SELECT id FROM payment_intents WHERE id IN \(idSet)
                    UNION SELECT id FROM refunds WHERE id IN \(idSet)
                    UNION SELECT id FROM disputes WHERE id IN \(idSet)
                    UNION SELECT transfer_group FROM charges WHERE transfer_group IN \(idSet)
                    UNION SELECT transfer_group FROM payment_intents WHERE transfer_group IN \(idSet)
                    UNION SELECT transfer_group FROM transfers WHERE transfer_group IN \(idSet)
                    """, Array(repeating: named, count: 7)
                ) { try String(row: $0, at: 0) })
            return debits.sorted { $0.id < $1.id }.flatMap { debit in
                debit.debitLinks(keys: keys).filter { !held.contains($0) }.map {
                    UnmatchedDebitLink(debitID: debit.id, link: $0)
                }
            }
        }
    }
}

extension HistoryObjects {
    /// The account debits created in `created` (and first seen by a run of `seen`, a SQL list of run ids, when given),
    /// by creation time, then id: few among many charges, found through the partial index `charges_on_account_debits`.
    static func accountDebits(
        _ db: SQLSession, created: Range<Int64>, firstSeenIn seen: String? = nil
    ) throws -> [ChargeFacts] {
        try fetchFacts(
            ChargeFacts.self, db: db,
            sql: """
                SELECT \(ChargeFacts.qualifiedSelection) FROM charges AS t
                WHERE t.payment_method_type = '\(ChargeFacts.accountDebitMethod)'
                  AND t.created >= ? AND t.created < ?\(seen.map { " AND t.first_seen_run IN \($0)" } ?? "")
                ORDER BY t.created, t.id
                """,
            arguments: [.integer(created.lowerBound), .integer(created.upperBound)])
    }
}
