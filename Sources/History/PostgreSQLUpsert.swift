import ReconCore

/// Storing a page's objects in PostgreSQL: what SQLite does in three statements per object (the raw JSON, the
/// facts, the change; ``HistoryStore/write(_:run:completing:windowObjects:now:)``), one statement does here, with
/// data-modifying `WITH` clauses, and a page's statements go to the server together (pipeline mode): about one round
/// trip per page instead of three per object. The outcome is the same, object for object: new, updated or
/// unchanged, each counted once per run.
enum PostgreSQLUpsert {
    static func upsert<Facts: StorableFacts>(
        _ objects: [StoredObject<Facts>], db: SQLSession, run runID: Int64
    ) throws -> WriteOutcome {
        let run = SQLValue.integer(runID)
        let kind = SQLValue.text(Facts.kind.rawValue)
        let rows = objects.map { object in [.text(object.rawJSON)] + object.facts.sqlValues + [run, kind] }
        var outcome = WriteOutcome()
        try db.executeEach(sql(Facts.self), rows) { _, row in
            // No row: this run saw the object already, with the same content, and nothing was written.
            guard let row else { return }
            // The third column is the change this statement recorded (none for a later sighting in the same run).
            outcome.count(
                firstSeen: try row.decode(atIndex: 0), changed: try row.decode(atIndex: 1), run: runID,
                recorded: !row.isNull(2))
        }
        return outcome
    }

    /// The statement for one object of `Facts`. Parameters: `$1` the raw JSON, then the fact columns (`$2` is the
    /// id), then the run and the kind. It returns the row's first-seen and changed runs and the change it recorded,
    /// or no row when this run saw the object already with the same JSON.
    static func sql<Facts: StorableFacts>(_ type: Facts.Type) -> String {
        let table = Facts.table
        let columns = Facts.columns
        let run = "CAST($\(columns.count + 2) AS BIGINT)"
        let kind = "CAST($\(columns.count + 3) AS TEXT)"
        let values = (2...(columns.count + 1)).map { "$\($0)" }.joined(separator: ", ")
        let assignments = columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return """
            WITH raw AS (
                INSERT INTO \(table)_raw (id, raw) VALUES ($2, $1)
                ON CONFLICT (id) DO UPDATE SET raw = excluded.raw WHERE \(table)_raw.raw IS DISTINCT FROM excluded.raw
                RETURNING 1
            ), upserted AS (
                INSERT INTO \(table) (\(columns.joined(separator: ", ")), first_seen_run, last_seen_run, changed_run)
                VALUES (\(values), \(run), \(run), \(run))
                ON CONFLICT (id) DO UPDATE SET \(assignments),
                    changed_run = CASE WHEN EXISTS (SELECT 1 FROM raw) THEN excluded.changed_run
                                       ELSE \(table).changed_run END,
                    last_seen_run = excluded.last_seen_run
                WHERE \(table).last_seen_run IS DISTINCT FROM excluded.last_seen_run OR EXISTS (SELECT 1 FROM raw)
                RETURNING first_seen_run, changed_run
            ), recorded AS (
                INSERT INTO changes (run_id, kind, object_id, change)
                SELECT \(run), \(kind), CAST($2 AS TEXT),
                       CASE WHEN u.first_seen_run = \(run) THEN 'new' ELSE 'updated' END
                FROM upserted u WHERE u.first_seen_run = \(run) OR u.changed_run = \(run)
                ON CONFLICT DO NOTHING
                RETURNING change
            )
            SELECT u.first_seen_run, u.changed_run, (SELECT change FROM recorded) FROM upserted u
            """
    }
}
