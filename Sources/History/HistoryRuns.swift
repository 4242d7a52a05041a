import Foundation
import ReconCore

/// Runs: beginning one (taking over an interrupted one's checkpoints), finishing it, listing them.
extension HistoryRuns {
    /// Records a run as started. Runs still marked running are dead (the caller holds the lock), so they
    /// are marked failed; the newest of them over the same range is returned for resuming.
    /// - Parameter resume: whether this run may take over an interrupted extraction of the same range
    ///   (extracting commands); `reconcile` does not.
    public func beginRun(_ start: RunStart, resume: Bool = true) throws(HistoryError)
        -> (runID: Int64, resumableRunID: Int64?)
    {
        let path = self.path
        return try write { db in
            // Runs still marked running died (the caller holds the lock): what they resolved never reached
            // anyone, so it stays open.
            try db.execute(
                """
                UPDATE findings SET resolved_run = NULL
                WHERE resolved_run IN (SELECT id FROM runs WHERE status = 'running')
                """)
            try db.execute(
                """
                UPDATE runs SET status = 'failed', finished_at = ?,
                    message = 'interrupted: the process stopped before finishing'
                WHERE status = 'running'
                """, [.integer(start.startedAt)])
            let (from, to) = start.range.unixSeconds
            let resumable =
                !resume
                ? nil
                : try db.value(
                    Int64.self,
                    """
                    SELECT id FROM runs WHERE range_from = ? AND range_to = ? AND status = 'failed'
                        AND id > COALESCE((SELECT MAX(id) FROM runs WHERE range_from = ? AND range_to = ?
                                           AND status = 'completed'), 0)
                        AND EXISTS (SELECT 1 FROM checkpoints WHERE run_id = runs.id)
                    ORDER BY id DESC LIMIT 1
                    """, [from, to, from, to].map(\.sqlValue))
            let inserted = try db.value(
                Int64.self,
                """
                INSERT INTO runs (command, range_from, range_to, time_zone, mode, status, started_at, pid,
                                  tool_version, stripe_version, api_base, resumed_from)
                VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?)
                RETURNING id
                """,
                [
                    start.command.sqlValue, from.sqlValue, to.sqlValue, start.range.timeZone.identifier.sqlValue,
                    start.mode.rawValue.sqlValue, start.startedAt.sqlValue, Int64(start.pid).sqlValue,
                    start.toolVersion.sqlValue, start.stripeVersion.sqlValue, start.apiBase.sqlValue,
                    resumable.sqlValue,
                ])
            guard let runID = inserted else { throw HistoryError.storage(path: path, reason: "no run id was given") }
            if let resumable {
                try db.execute(
                    """
                    INSERT INTO checkpoints (run_id, resource, window_from, window_to, objects, completed_at)
                    SELECT CAST(? AS BIGINT), resource, window_from, window_to, objects, completed_at FROM checkpoints
                    WHERE run_id = ?
                    """, [.integer(runID), .integer(resumable)])
            }
            return (runID, resumable)
        }
    }

    /// Records how a run ended.
    public func finishRun(
        _ runID: Int64, status: RunStatus, finishedAt: Int64, message: String?, details: String?
    ) throws(HistoryError) {
        try write { db in
            try Self.finishRun(db, runID, status: status, finishedAt: finishedAt, message: message, details: details)
        }
    }

    /// Records how a run ended, in the caller's transaction.
    static func finishRun(
        _ db: SQLSession, _ runID: Int64, status: RunStatus, finishedAt: Int64, message: String?, details: String?
    ) throws {
        try db.execute(
            "UPDATE runs SET status = ?, finished_at = ?, message = ?, details = ? WHERE id = ?",
            [
                status.rawValue.sqlValue, finishedAt.sqlValue, message.sqlValue, details.sqlValue,
                runID.sqlValue,
            ])
        if status == .completed {
            // Its report was written: its findings have now been reported.
            try db.execute(
                "UPDATE findings SET reported_run = ? WHERE last_run = ?", [.integer(runID), .integer(runID)])
        } else {
            // Its report never reached anyone: what it resolved stays open for the next run to resolve.
            try db.execute("UPDATE findings SET resolved_run = NULL WHERE resolved_run = ?", [.integer(runID)])
        }
    }

    /// Past runs, newest first.
    public func list(limit: Int = 100) throws(HistoryError) -> [RunRecord] {
        let path = self.path
        return try read { db in
            try db.all(
                """
                SELECT id, command, range_from, range_to, time_zone, mode, status, started_at, finished_at, pid,
                       tool_version, stripe_version, api_base, resumed_from, message, details
                FROM runs ORDER BY id DESC LIMIT ?
                """, [.integer(Int64(limit))]
            ) { row in
                guard let mode = StripeMode(rawValue: try row.decode(atIndex: 5)) else {
                    throw HistoryError.corrupt(path: path)
                }
                return RunRecord(
                    id: try row.decode(atIndex: 0), command: try row.decode(atIndex: 1),
                    rangeFrom: try row.decode(atIndex: 2), rangeTo: try row.decode(atIndex: 3),
                    timeZone: try row.decode(atIndex: 4), mode: mode,
                    status: RunStatus(rawValue: try row.decode(atIndex: 6)) ?? .failed,
                    startedAt: try row.decode(atIndex: 7), finishedAt: try row.decode(atIndex: 8),
                    pid: try row.decode(atIndex: 9), toolVersion: try row.decode(atIndex: 10),
                    stripeVersion: try row.decode(atIndex: 11), apiBase: try row.decode(atIndex: 12),
                    resumedFrom: try row.decode(atIndex: 13), message: try row.decode(atIndex: 14),
                    details: try row.decode(atIndex: 15))
            }
        }
    }

    /// The windows a run has finished (its own and those it took over when resuming).
    public func completedWindows(run runID: Int64) async throws(HistoryError) -> Set<ExtractionWindow> {
        try await readDatabase { db in
            Set(
                try db.all(
                    "SELECT resource, window_from, window_to FROM checkpoints WHERE run_id = ?", [.integer(runID)]
                ) { row in
                    ExtractionWindow(
                        resource: try row.decode(atIndex: 0), from: try row.decode(atIndex: 1),
                        to: try row.decode(atIndex: 2))
                })
        }
    }

    // MARK: - Mode

    /// Records `mode` on first use; refuses a database of the other mode.
    public func claimMode(_ mode: StripeMode) throws(HistoryError) {
        let path = self.path
        try write { db in
            if let stored = try db.value(String.self, "SELECT value FROM meta WHERE key = 'mode'") {
                guard stored == mode.rawValue else {
                    throw HistoryError.modeMismatch(path: path, stored: stored, requested: mode.rawValue)
                }
            } else {
                try db.execute("INSERT INTO meta (key, value) VALUES ('mode', ?)", [.text(mode.rawValue)])
            }
        }
    }

    /// The mode recorded by the first run; `nil` for a history no run has claimed yet. A value that is no mode
    /// means the file was changed by something else than connect-recon.
    public func storedMode() throws(HistoryError) -> StripeMode? {
        let path = self.path
        let stored = try read { db in try db.value(String.self, "SELECT value FROM meta WHERE key = 'mode'") }
        guard let stored else { return nil }
        guard let mode = StripeMode(rawValue: stored) else { throw .corrupt(path: path) }
        return mode
    }
}

extension HistoryRuns {
    /// The runs whose sightings count for `runID`: itself and the interrupted runs it resumed, transitively.
    public func runChain(_ runID: Int64) async throws(HistoryError) -> [Int64] {
        try await readDatabase { db in
            var chain = [runID]
            var current = runID
            while let previous = try db.value(
                Int64.self, "SELECT resumed_from FROM runs WHERE id = ?", [.integer(current)]),
                !chain.contains(previous)
            {
                chain.append(previous)
                current = previous
            }
            return chain
        }
    }
}
