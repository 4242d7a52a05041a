import ReconCore

/// The one definition of a range's scope (SPEC §3), shared by the follow-ups that complete it and by the
/// reconciliation that reads it, so the two can never disagree about which objects a range covers.
enum HistoryScope {
    /// Fills the temporary table `scope_charges` with the range's charges and the charges of its refunds,
    /// disputes, transfers (their funding charge) and application fees (their originating charge).
    static func createScopeCharges(_ db: SQLSession, from: Int64, to: Int64) throws {
        try db.execute("DROP TABLE IF EXISTS \(db.dialect.temporaryTable("scope_charges"))")
        try db.execute("CREATE TEMP TABLE scope_charges (id TEXT PRIMARY KEY)")
        try db.execute(
            "INSERT INTO scope_charges SELECT * FROM (\(charges(from: from, to: to))) AS s WHERE TRUE "
                + "ON CONFLICT DO NOTHING")
    }

    /// The `SELECT` of the range's scope charges (see ``createScopeCharges(_:from:to:)``), for a query that reads
    /// them as a common table expression instead of a temporary table (a read transaction cannot create one).
    static func charges(from: Int64, to: Int64) -> String {
        """
        SELECT id FROM charges WHERE created >= \(from) AND created < \(to)
        UNION SELECT charge_id FROM refunds WHERE created >= \(from) AND created < \(to) AND charge_id IS NOT NULL
        UNION SELECT charge_id FROM disputes WHERE created >= \(from) AND created < \(to)
        UNION SELECT source_transaction_id FROM transfers
            WHERE created >= \(from) AND created < \(to) AND source_transaction_id LIKE 'ch\\_%' ESCAPE '\\'
        UNION SELECT originating_charge_id FROM application_fees
            WHERE created >= \(from) AND created < \(to) AND originating_charge_id IS NOT NULL
        """
    }

    /// The balance transactions that the objects of each kind in `owners` name, as the catalogue says which columns
    /// name one (a charge's `balance_transaction_id`, a failed refund's `failure_balance_transaction_id`, a
    /// dispute's `balance_transaction_ids`): one `SELECT` per column, each owner's condition on its table as `t`,
    /// joined by `UNION ALL`.
    static func balanceTransactionsNamed(
        by owners: [(kind: ObjectKind, condition: String)], dialect: SQLDialect
    ) -> String {
        var selects: [String] = []
        for (kind, condition) in owners {
            let entry = kind.entry
            for column in entry.balanceTransactionColumns {
                selects.append(
                    "SELECT t.\(column) FROM \(entry.table) AS t WHERE t.\(column) IS NOT NULL AND (\(condition))")
            }
            for array in entry.arrays where array.kind == .balanceTransaction {
                guard let column = array.column else { continue }
                selects.append(
                    "SELECT j.value FROM \(entry.table) AS t, \(dialect.arrayElements(of: column)) WHERE (\(condition))"
                )
            }
        }
        return selects.joined(separator: "\nUNION ALL ")
    }
}
