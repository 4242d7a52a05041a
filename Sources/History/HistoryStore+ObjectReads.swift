import GRDB
import ReconCore

/// Reading stored objects: their facts, ids, raw JSON, counts, and the changes a run recorded.
extension HistoryStore {
    /// Charges created in `[from, to)` (Unix seconds).
    public func charges(createdFrom from: Int64, to: Int64) throws(HistoryError) -> [ChargeFacts] {
        try facts(ChargeFacts.self, createdFrom: from, to: to)
    }

    func facts<Facts: StorableFacts>(_ type: Facts.Type, createdFrom from: Int64, to: Int64) throws(HistoryError)
        -> [Facts]
    {
        try read { db in
            try Self.fetchFacts(
                Facts.self, db: db, condition: "created >= :from AND created < :to",
                arguments: ["from": from, "to": to])
        }
    }

    /// The facts of the rows of `Facts.table` matching `condition`, ordered by creation time, then id.
    ///
    /// Reads the fact columns by index from a cursor (no `Codable`, no row copies): the reconcile of a million
    /// charges loads five million rows through here.
    static func fetchFacts<Facts: StorableFacts>(
        _ type: Facts.Type, db: Database, condition: String, arguments: StatementArguments
    ) throws -> [Facts] {
        try fetchFacts(
            Facts.self, db: db,
            sql: "SELECT \(Facts.selection) FROM \(Facts.table) WHERE \(condition) ORDER BY created, id",
            arguments: arguments)
    }

    /// The facts of every row of `sql`, whose `SELECT` list is `Facts`' columns in order.
    static func fetchFacts<Facts: StorableFacts>(
        _ type: Facts.Type, db: Database, sql: String, arguments: StatementArguments
    ) throws -> [Facts] {
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        var facts: [Facts] = []
        while let row = try cursor.next() { facts.append(try Facts(row: row)) }
        return facts
    }

    /// Ids of the objects of `kind` created in `[from, to)`, sorted.
    public func ids(of kind: ObjectKind, createdFrom from: Int64, to: Int64) throws(HistoryError) -> [String] {
        let table = kind.entry.table
        return try read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM \(table) WHERE created >= ? AND created < ? ORDER BY id",
                arguments: [from, to])
        }
    }

    /// Every stored object of `kind` as `id → raw JSON`, for comparing two histories.
    public func rawObjects(of kind: ObjectKind) throws(HistoryError) -> [String: String] {
        let table = kind.entry.table
        return try read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, raw FROM \(table)_raw").map {
                    (($0["id"] as String), ($0["raw"] as String))
                })
        }
    }

    /// The stored raw JSON of one object, exactly as Stripe sent it.
    public func rawJSON(of kind: ObjectKind, id: String) throws(HistoryError) -> String? {
        let table = kind.entry.table
        return try read { db in
            try String.fetchOne(db, sql: "SELECT raw FROM \(table)_raw WHERE id = ?", arguments: [id])
        }
    }

    /// How many objects of `kind` the history holds.
    public func count(of kind: ObjectKind) throws(HistoryError) -> Int {
        let table = kind.entry.table
        return try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    /// The changes a run recorded, by kind: (new, updated).
    public func changes(run runID: Int64) throws(HistoryError) -> [ObjectKind: (new: Int, updated: Int)] {
        try read { db in
            var result: [ObjectKind: (new: Int, updated: Int)] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT kind, change, COUNT(*) AS n FROM changes WHERE run_id = ? GROUP BY kind, change",
                arguments: [runID])
            {
                guard let kind = ObjectKind(rawValue: row["kind"]) else { continue }
                var entry = result[kind] ?? (0, 0)
                if row["change"] == "new" { entry.new = row["n"] } else { entry.updated = row["n"] }
                result[kind] = entry
            }
            return result
        }
    }
}
