import ReconCore

/// Storing extracted objects: one upsert per object into its fact and raw tables, with its change recorded.
extension HistoryStore {
    /// Stores `batch` in one transaction: new objects are inserted, known ones updated in place (never
    /// duplicated), and content changes are recorded against `runID`. With `completing`, the window's
    /// checkpoint commits in the same transaction, so a crash never marks a window done without its objects.
    ///
    /// Runs on the database's writing thread: the calling task suspends, no cooperative thread blocks on it.
    @discardableResult
    public func write(
        _ batch: ObjectBatch, run runID: Int64, completing window: ExtractionWindow? = nil, windowObjects: Int = 0,
        now: Int64
    ) async throws(HistoryError) -> WriteOutcome {
        try await writeDatabase { db in
            try Self.store(batch, db: db, run: runID, completing: window, windowObjects: windowObjects, now: now)
        }
    }

    private static func store(
        _ batch: ObjectBatch, db: SQLSession, run runID: Int64, completing window: ExtractionWindow?,
        windowObjects: Int,
        now: Int64
    ) throws -> WriteOutcome {
        var upserts = Upserts(batch: batch, db: db, runID: runID)
        try batch.visitKinds(&upserts)
        let outcome = upserts.outcome
        try Self.link(batch.payoutTransactions, db: db, run: runID)
        if let window {
            try db.execute(
                """
                INSERT INTO checkpoints (run_id, resource, window_from, window_to, objects, completed_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (run_id, resource, window_from, window_to)
                DO UPDATE SET objects = excluded.objects, completed_at = excluded.completed_at
                """,
                [
                    runID.sqlValue, window.resource.sqlValue, window.from.sqlValue, window.to.sqlValue,
                    windowObjects.sqlValue, now.sqlValue,
                ])
        }
        return outcome
    }

    /// Upserts each kind's objects of a batch in turn, adding up what the writes did.
    private struct Upserts: ObjectBatchVisitor {
        let batch: ObjectBatch
        let db: SQLSession
        let runID: Int64
        var outcome = WriteOutcome()

        mutating func visit<Facts: StorableFacts>(
            _ kind: WritableKeyPath<ObjectBatch, [StoredObject<Facts>]>
        ) throws {
            outcome = outcome + (try HistoryStore.upsert(batch[keyPath: kind], db: db, run: runID))
        }
    }

    fileprivate static func upsert<Facts: StorableFacts>(
        _ objects: [StoredObject<Facts>], db: SQLSession, run runID: Int64
    ) throws -> WriteOutcome {
        guard !objects.isEmpty else { return WriteOutcome() }
        if db.dialect == .postgreSQL { return try PostgreSQLUpsert.upsert(objects, db: db, run: runID) }
        // Arguments are bound by position into one prepared statement per table: no dictionary, encoder or
        // SQL text per object.
        let upsert = upsertSQL(Facts.self)
        let storeRaw = rawUpsertSQL(Facts.self)
        let change = "INSERT INTO changes (run_id, kind, object_id, change) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"
        let run = runID.sqlValue
        var values: [SQLValue] = []
        values.reserveCapacity(Facts.columns.count + 5)
        var outcome = WriteOutcome()
        for object in objects {
            // The raw JSON first: its upsert changes a row only when the object is new or its JSON differs.
            let id = object.facts.id.sqlValue
            let contentChanged = try db.execute(storeRaw, [id, .text(object.rawJSON)], prepared: true) > 0
            values.removeAll(keepingCapacity: true)
            values += object.facts.sqlValues
            values += [run, run, run, .boolean(contentChanged), .boolean(contentChanged)]
            // No row: this run saw the object already, with the same content (embedded in one page and listed in
            // another, say), and nothing was written.
            var runs: (firstSeen: Int64, changed: Int64)?
            try db.forEachRow(upsert, values, prepared: true) { row in
                runs = (try row.decode(atIndex: 0), try row.decode(atIndex: 1))
            }
            guard let runs else { continue }
            var recorded = false
            if let kind = WriteOutcome.change(firstSeen: runs.firstSeen, changed: runs.changed, run: runID) {
                recorded =
                    try db.execute(change, [run, .text(Facts.kind.rawValue), id, .text(kind)], prepared: true) == 1
            }
            outcome.count(firstSeen: runs.firstSeen, changed: runs.changed, run: runID, recorded: recorded)
        }
        return outcome
    }

    /// Records which payout's `?payout=` list held each balance transaction (seen again: its `last_seen_run`).
    private static func link(_ links: [PayoutTransactionLink], db: SQLSession, run runID: Int64) throws {
        guard !links.isEmpty else { return }
        let statement = """
            INSERT INTO payout_transactions (payout_id, balance_transaction_id, first_seen_run, last_seen_run)
            VALUES (?, ?, ?, ?)
            ON CONFLICT(payout_id, balance_transaction_id) DO UPDATE SET last_seen_run = excluded.last_seen_run
            """
        try db.executeEach(
            statement,
            links.map { [.text($0.payoutID), .text($0.balanceTransactionID), .integer(runID), .integer(runID)] }
        ) { _, _ in }
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
