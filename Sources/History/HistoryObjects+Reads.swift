import ReconCore

/// Reading stored objects: their facts, ids, raw JSON, counts, and the changes a run recorded.
extension HistoryObjects {
    /// Charges created in `[from, to)` (Unix seconds).
    public func charges(createdFrom from: Int64, to: Int64) throws(HistoryError) -> [ChargeFacts] {
        try facts(ChargeFacts.self, createdFrom: from, to: to)
    }

    func facts<Facts: StorableFacts>(_ type: Facts.Type, createdFrom from: Int64, to: Int64) throws(HistoryError)
        -> [Facts]
    {
        try read { db in
            try Self.fetchFacts(
                Facts.self, db: db, condition: "created >= ? AND created < ?",
                arguments: [.integer(from), .integer(to)])
        }
    }

    /// The facts of the rows of `Facts.table` matching `condition`, ordered by creation time, then id.
    ///
    /// Reads the fact columns by index from a cursor (no `Codable`, no row copies): the reconcile of a million
    /// charges loads five million rows through here.
    static func fetchFacts<Facts: StorableFacts>(
        _ type: Facts.Type, db: SQLSession, condition: String, arguments: [SQLValue]
    ) throws -> [Facts] {
        try fetchFacts(
            Facts.self, db: db,
            sql: "SELECT \(Facts.selection) FROM \(Facts.table) WHERE \(condition) ORDER BY created, id",
            arguments: arguments)
    }

    /// The facts of every row of `sql`, whose `SELECT` list is `Facts`' columns in order.
    static func fetchFacts<Facts: StorableFacts>(
        _ type: Facts.Type, db: SQLSession, sql: String, arguments: [SQLValue]
    ) throws -> [Facts] {
        try Facts.reader.all(db, sql, arguments)
    }

    /// Ids of the objects of `kind` created in `[from, to)`, sorted.
    public func ids(of kind: ObjectKind, createdFrom from: Int64, to: Int64) throws(HistoryError) -> [String] {
        let table = kind.entry.table
        return try read { db in
            try db.values(
                String.self, "SELECT id FROM \(table) WHERE created >= ? AND created < ? ORDER BY id",
                [.integer(from), .integer(to)])
        }
    }

    /// Every stored object of `kind` as `id → raw JSON`, for comparing two histories.
    public func rawObjects(of kind: ObjectKind) throws(HistoryError) -> [String: String] {
        let table = kind.entry.table
        return try read { db in
            Dictionary(
                uniqueKeysWithValues: try db.all("SELECT id, raw FROM \(table)_raw") { row in
                    (try row.decode(String.self, atIndex: 0), try row.decode(String.self, atIndex: 1))
                })
        }
    }

    /// The stored raw JSON of one object, exactly as Stripe sent it.
    public func rawJSON(of kind: ObjectKind, id: String) throws(HistoryError) -> String? {
        let table = kind.entry.table
        return try read { db in
            try db.value(String.self, "SELECT raw FROM \(table)_raw WHERE id = ?", [.text(id)])
        }
    }

    /// How many objects of `kind` the history holds.
    public func count(of kind: ObjectKind) throws(HistoryError) -> Int {
        let table = kind.entry.table
        return try read { db in try db.value(Int.self, "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    /// The changes a run recorded, by kind: (new, updated).
    public func changes(run runID: Int64) throws(HistoryError) -> [ObjectKind: (new: Int, updated: Int)] {
        try read { db in
            var result: [ObjectKind: (new: Int, updated: Int)] = [:]
            try db.forEachRow(
                "SELECT kind, change, COUNT(*) AS n FROM changes WHERE run_id = ? GROUP BY kind, change",
                [.integer(runID)]
            ) { row in
                guard let kind = ObjectKind(rawValue: try row.decode(atIndex: 0)) else { return }
                var entry = result[kind] ?? (0, 0)
                let count: Int = try row.decode(atIndex: 2)
                if try row.decode(String.self, atIndex: 1) == "new" { entry.new = count } else { entry.updated = count }
                result[kind] = entry
            }
            return result
        }
    }
}
