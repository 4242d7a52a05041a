import ReconCore

extension HistoryStore {
    /// What a reconcile of the whole history cannot go below (docs/BENCHMARKS.md, measurement (b)): every facts table
    /// read once, in one read transaction, each row decoded into its facts as the reconcile's parts decode them, and
    /// the payouts' links. Returns the rows read.
    package func readEveryFactTable() throws(HistoryError) -> Int {
        try read { db in
            var rows = 0
            for kind in ObjectKind.allCases { rows += try Self.readAll(StorableKinds.type(of: kind), db) }
            try db.forEachRow("SELECT payout_id, balance_transaction_id FROM payout_transactions") { row in
                _ = try row.decode(String.self, atIndex: 0)
                _ = try row.decode(String.self, atIndex: 1)
                rows += 1
            }
            return rows
        }
    }

    private static func readAll<Facts: StorableFacts>(_ type: Facts.Type, _ db: SQLSession) throws -> Int {
        try Facts.reader.all(db, "SELECT \(Facts.selection) FROM \(Facts.table)", []).count
    }
}
