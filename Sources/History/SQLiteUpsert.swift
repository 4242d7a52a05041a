import ReconCore

/// Storing a page's objects in SQLite: per object, its raw JSON (whose upsert tells whether its content changed), its
/// facts and, when it is new or changed, the change, each a prepared statement; the outcome counted by
/// ``WriteOutcome``'s one rule, as ``PostgreSQLUpsert`` counts it in one statement per object.
enum SQLiteUpsert {
    static func upsert<Facts: StorableFacts>(
        _ objects: [StoredObject<Facts>], db: SQLSession, run runID: Int64
    ) throws -> WriteOutcome {
        guard !objects.isEmpty else { return WriteOutcome() }
        // Arguments are bound by position into statements prepared once per batch, through SQLite's C API: no
        // dictionary, encoder, SQL text or argument array per object.
        let upsert = try db.sqliteStatement(upsertSQL(Facts.self))
        let storeRaw = try db.sqliteStatement(rawUpsertSQL(Facts.self))
        let change = try db.sqliteStatement(
            "INSERT INTO changes (run_id, kind, object_id, change) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
        let run = runID.sqlValue
        let kindName = SQLValue.text(Facts.kind.rawValue)
        var values: [SQLValue] = []
        values.reserveCapacity(Facts.columns.count + 5)
        var outcome = WriteOutcome()
        for object in objects {
            // The raw JSON first: its upsert changes a row only when the object is new or its JSON differs.
            let id = object.facts.id.sqlValue
            let contentChanged = try storeRaw.execute([id, .text(object.rawJSON)]) > 0
            values.removeAll(keepingCapacity: true)
            values += object.facts.sqlValues
            values += [run, run, run, .boolean(contentChanged), .boolean(contentChanged)]
            // No row: this run saw the object already, with the same content (embedded in one page and listed in
            // another, say), and nothing was written.
            guard let runs = try upsert.firstRowIntegers(values, count: 2) else { continue }
            let (firstSeen, changed) = (runs[0], runs[1])
            var recorded = false
            if let kind = WriteOutcome.change(firstSeen: firstSeen, changed: changed, run: runID) {
                recorded = try change.execute([run, kindName, id, .text(kind)]) == 1
            }
            outcome.count(firstSeen: firstSeen, changed: changed, run: runID, recorded: recorded)
        }
        return outcome
    }

    /// The upsert of one object of `Facts`: its columns and runs, returning the row's runs. The last two arguments
    /// say whether the raw JSON changed (then `changed_run` becomes this run). An object this run saw already with
    /// the same JSON is left as it is and returns no row.
    private static func upsertSQL<Facts: StorableFacts>(_ type: Facts.Type) -> String {
        let table = Facts.table
        let columns = Facts.columns
        let assignments = columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return """
            INSERT INTO \(table) (\(columns.joined(separator: ", ")), first_seen_run, last_seen_run, changed_run)
            VALUES (\(Array(repeating: "?", count: columns.count + 3).joined(separator: ", ")))
            ON CONFLICT(id) DO UPDATE SET \(assignments),
                changed_run = CASE WHEN ? THEN excluded.changed_run ELSE \(table).changed_run END,
                last_seen_run = excluded.last_seen_run
            WHERE \(table).last_seen_run IS DISTINCT FROM excluded.last_seen_run OR ?
            RETURNING first_seen_run, changed_run
            """
    }

    /// The upsert of one object's raw JSON into `<table>_raw`: inserts, or replaces only a different text, so
    /// the number of rows it changed tells whether the object is new or changed.
    private static func rawUpsertSQL<Facts: StorableFacts>(_ type: Facts.Type) -> String {
        let table = Facts.table + "_raw"
        return """
            INSERT INTO \(table) (id, raw) VALUES (?, ?)
            ON CONFLICT(id) DO UPDATE SET raw = excluded.raw WHERE \(table).raw IS DISTINCT FROM excluded.raw
            """
    }
}
