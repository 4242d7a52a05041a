import ReconCore

/// Storing extracted objects: one upsert per object into its fact and raw tables, with its change recorded.
extension HistoryObjects {
    /// Stores `batch` (stored objects, ``ObjectLists/subscript(stored:)``) in one transaction, shared with the other
    /// pages queued meanwhile (``GroupCommit``): new objects are inserted, known ones updated in place (never
    /// duplicated), and content changes are recorded against `runID`. With `completing`, the window's
    /// checkpoint commits in the same transaction, so a crash never marks a window done without its objects. An object
    /// this run has stored already with the same JSON is left out (``RunWrites``): writing it again would change
    /// nothing.
    ///
    /// Runs on the database's writing thread: the calling task suspends, no cooperative thread blocks on it.
    @discardableResult
    public func write(
        _ batch: ObjectLists, run runID: Int64, completing window: ExtractionWindow? = nil, windowObjects: Int = 0,
        now: Int64
    ) async throws(HistoryError) -> WriteOutcome {
        let database = database
        let written = pageWrites.written
        do {
            return try await pageWrites.write { db in
                try Self.store(
                    batch, into: database, db: db, run: runID, completing: window, windowObjects: windowObjects,
                    now: now, leavingOut: written)
            }
        } catch {
            throw database.historyError(error)
        }
    }

    /// Stores one page's `batch`, less what `written` says this run stored already, and its window's checkpoint, in
    /// the transaction `db` runs in.
    static func store(
        _ batch: ObjectLists, into database: any HistoryDatabase, db: SQLSession, run runID: Int64,
        completing window: ExtractionWindow?, windowObjects: Int, now: Int64, leavingOut written: RunWrites
    ) throws -> WriteOutcome {
        func upsert<Facts: StorableFacts>(_ type: Facts.Type) throws -> WriteOutcome {
            let objects = written.unwritten(batch[stored: type], run: runID)
            return objects.isEmpty ? WriteOutcome() : try database.upsert(objects, db: db, run: runID)
        }
        var outcome = WriteOutcome()
        for type in StorableKinds.all { outcome = outcome + (try upsert(type)) }
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
}
