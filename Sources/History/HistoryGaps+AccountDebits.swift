import ReconCore

extension HistoryGaps {
    /// The links of the account debits created in `[from, to)` (``ChargeFacts/debitLinks(keys:)``) that recover
    /// nothing because none of them names anything the history holds, by debit, then link. A debit that names one thing
    /// the history holds is not listed for its other labels (a platform's own payment id as a transfer's group).
    public func unmatchedDebitLinks(
        from: Int64, to: Int64, keys: [String]
    ) async throws(HistoryError) -> [UnmatchedDebitLink] {
        try await readDatabase { db in
            try HistoryObjects.accountDebits(db, created: from..<to).sorted { $0.id < $1.id }.flatMap { debit in
                guard debit.linksToHeldObjects(keys: keys).isEmpty else { return [UnmatchedDebitLink]() }
                return debit.debitLinks(keys: keys).map { UnmatchedDebitLink(debitID: debit.id, link: $0) }
            }
        }
    }
}

extension HistoryGaps {
    /// The account debits created in `created` that name nothing themselves under `keys`
    /// (``ChargeFacts/namesNothingItself(keys:)``), whose transfer has not been read and that are not among `missing`
    /// (a SQL list of ids), by id.
    static func unreadDebitSourceTransfers(
        _ db: SQLSession, created: Range<Int64>, missing: String, keys: [String]
    ) throws -> [String] {
        try HistoryObjects.fetchFacts(
            ChargeFacts.self, db: db,
            sql: """
                SELECT \(ChargeFacts.qualifiedSelection) FROM charges AS t
                WHERE \(HistoryObjects.isAccountDebit("t")) AND t.created >= ? AND t.created < ?
                  AND t.id NOT IN (SELECT charge_id FROM debit_source_transfers) AND t.id NOT IN \(missing)
                ORDER BY t.id
                """,
            arguments: [.integer(created.lowerBound), .integer(created.upperBound)]
        ).filter { $0.namesNothingItself(keys: keys) }.map(\.id)
    }
}

extension HistoryObjects {
    /// The account debits created in `created` (and first seen by a run of `seen`, a SQL list of run ids, when given),
    /// by creation time, then id, each with the transfer it was made with where the history read it
    /// (``ChargeFacts/sourceTransfer``) and what its links could name that the history holds nothing of
    /// (``ChargeFacts/linksHeldNowhere``): few among many charges, found through the partial index
    /// `charges_on_account_debits`.
    static func accountDebits(
        _ db: SQLSession, created: Range<Int64>, firstSeenIn seen: String? = nil
    ) throws -> [ChargeFacts] {
        var debits = try fetchFacts(
            ChargeFacts.self, db: db,
            sql: """
                SELECT \(ChargeFacts.qualifiedSelection) FROM charges AS t
                WHERE \(isAccountDebit("t")) AND t.created >= ? AND t.created < ?\(seen.map { " AND t.first_seen_run IN \($0)" } ?? "")
                ORDER BY t.created, t.id
                """,
            arguments: [.integer(created.lowerBound), .integer(created.upperBound)])
        guard !debits.isEmpty else { return debits }
        // The transfers they were made with, where read (``ChargeFacts/sourceTransfer``).
        var transfers: [String: DebitSourceTransfer] = [:]
        try db.forEachRow(
            """
            SELECT charge_id, transfer_id, transfer_group, metadata FROM debit_source_transfers
            WHERE charge_id IN \(db.dialect.idSet)
            """, [.text(IDList.json(debits.map(\.id)))]
        ) { row in
            transfers[try String(row: row, at: 0)] = DebitSourceTransfer(
                transferID: try String?(row: row, at: 1),
                metadata: MetadataJSON.metadata(try String?(row: row, at: 3)),
                transferGroup: try String?(row: row, at: 2))
        }
        for index in debits.indices { debits[index].sourceTransfer = transfers[debits[index].id] }
        // What their links could name that the history holds nothing of (``ChargeFacts/linksHeldNowhere``).
        let possible = debits.reduce(into: Set<String>()) { $0.formUnion($1.possibleDebitLinks) }
        let held = try heldIDs(db, among: possible)
        for index in debits.indices {
            debits[index].linksHeldNowhere = debits[index].possibleDebitLinks.subtracting(held)
        }
        return debits
    }

    /// The SQL condition that the charge `alias` is an account debit (``ChargeFacts/accountDebitMethod``), as the
    /// partial index `charges_on_account_debits` reads it.
    static func isAccountDebit(_ alias: String) -> String {
        "\(alias).payment_method_type = '\(ChargeFacts.accountDebitMethod)'"
    }

    /// The SQL condition that no connected account paid the charge `alias` (``ChargeFacts/isPaidByAnAccount``'s twin):
    /// its payment method is none of ``ChargeFacts/accountPaymentMethods``.
    static func noAccountPaid(_ alias: String) -> String {
        "(\(alias).payment_method_type IS NULL OR \(alias).payment_method_type NOT IN "
            + "\(SQLList.of(ChargeFacts.accountPaymentMethods)))"
    }

    /// Which of `ids` name something the history holds: a charge, a PaymentIntent, a refund, a dispute, or a transfer
    /// group of a PaymentIntent, a transfer or a charge no account paid (a debit's own group names nothing but itself).
    static func heldIDs(_ db: SQLSession, among ids: Set<String>) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let named = SQLValue.text(IDList.json(Array(ids)))
        let idSet = db.dialect.idSet
        return Set(
            try db.all(
                """
                SELECT id FROM charges WHERE id IN \(idSet)
                UNION SELECT id FROM payment_intents WHERE id IN \(idSet)
                UNION SELECT id FROM refunds WHERE id IN \(idSet)
                UNION SELECT id FROM disputes WHERE id IN \(idSet)
                UNION SELECT transfer_group FROM charges c WHERE transfer_group IN \(idSet) AND \(noAccountPaid("c"))
                UNION SELECT transfer_group FROM payment_intents WHERE transfer_group IN \(idSet)
                UNION SELECT transfer_group FROM transfers WHERE transfer_group IN \(idSet)
                """, Array(repeating: named, count: 7)
            ) { try String(row: $0, at: 0) })
    }
}
