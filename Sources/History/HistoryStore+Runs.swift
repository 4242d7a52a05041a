import Foundation
import GRDB
import ReconCore

/// Runs: beginning one (taking over an interrupted one's checkpoints), finishing it, listing them.
extension HistoryStore {
    /// Records a run as started. Runs still marked running are dead (the caller holds the lock), so they
    /// are marked failed; the newest of them over the same range is returned for resuming.
    /// - Parameter resume: whether this run may take over an interrupted extraction of the same range
    ///   (extracting commands); `reconcile` does not.
    public func beginRun(_ start: RunStart, resume: Bool = true) throws(HistoryError)
        -> (runID: Int64, resumableRunID: Int64?)
    {
        try write { db in
            // Runs still marked running died (the caller holds the lock): what they resolved never reached
            // anyone, so it stays open.
            try db.execute(
                sql: """
                    UPDATE findings SET resolved_run = NULL
                    WHERE resolved_run IN (SELECT id FROM runs WHERE status = 'running')
                    """)
            try db.execute(
                sql: """
                    UPDATE runs SET status = 'failed', finished_at = ?,
                        message = 'interrupted: the process stopped before finishing'
                    WHERE status = 'running'
                    """, arguments: [start.startedAt])
            let (from, to) = start.range.unixSeconds
            let resumable =
                !resume
                ? nil
                : try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT id FROM runs WHERE range_from = ? AND range_to = ? AND status = 'failed'
                            AND id > COALESCE((SELECT MAX(id) FROM runs WHERE range_from = ? AND range_to = ?
                                               AND status = 'completed'), 0)
                            AND EXISTS (SELECT 1 FROM checkpoints WHERE run_id = runs.id)
                        ORDER BY id DESC LIMIT 1
                        """, arguments: [from, to, from, to])
            try db.execute(
                sql: """
                    INSERT INTO runs (command, range_from, range_to, time_zone, mode, status, started_at, pid,
                                      tool_version, stripe_version, api_base, resumed_from)
                    VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    start.command, from, to, start.range.timeZone.identifier, start.mode.rawValue, start.startedAt,
                    Int64(start.pid), start.toolVersion, start.stripeVersion, start.apiBase, resumable,
                ])
            let runID = db.lastInsertedRowID
            if let resumable {
                try db.execute(
                    sql: """
                        INSERT INTO checkpoints (run_id, resource, window_from, window_to, objects, completed_at)
                        SELECT ?, resource, window_from, window_to, objects, completed_at FROM checkpoints
                        WHERE run_id = ?
                        """, arguments: [runID, resumable])
            }
            return (runID, resumable)
        }
    }

    /// Records how a run ended.
    public func finishRun(
        _ runID: Int64, status: RunStatus, finishedAt: Int64, message: String?, details: String?
    ) throws(HistoryError) {
        try write { db in
            try db.execute(
                sql: "UPDATE runs SET status = ?, finished_at = ?, message = ?, details = ? WHERE id = ?",
                arguments: [status.rawValue, finishedAt, message, details, runID])
            if status == .completed {
                // Its report was written: its findings have now been reported.
                try db.execute(
                    sql: "UPDATE findings SET reported_run = ? WHERE last_run = ?", arguments: [runID, runID])
            } else {
                // Its report never reached anyone: what it resolved stays open for the next run to resolve.
                try db.execute(
                    sql: "UPDATE findings SET resolved_run = NULL WHERE resolved_run = ?", arguments: [runID])
            }
        }
    }

    /// Past runs, newest first.
    public func runs(limit: Int = 100) throws(HistoryError) -> [RunRecord] {
        let path = self.path
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM runs ORDER BY id DESC LIMIT ?", arguments: [limit]).map { row in
                guard let mode = StripeMode(rawValue: row["mode"]) else { throw HistoryError.corrupt(path: path) }
                return RunRecord(
                    id: row["id"], command: row["command"], rangeFrom: row["range_from"], rangeTo: row["range_to"],
                    timeZone: row["time_zone"], mode: mode,
                    status: RunStatus(rawValue: row["status"]) ?? .failed, startedAt: row["started_at"],
                    finishedAt: row["finished_at"], pid: row["pid"], toolVersion: row["tool_version"],
                    stripeVersion: row["stripe_version"], apiBase: row["api_base"], resumedFrom: row["resumed_from"],
                    message: row["message"], details: row["details"])
            }
        }
    }

    /// The windows a run has finished (its own and those it took over when resuming).
    public func completedWindows(run runID: Int64) async throws(HistoryError) -> Set<ExtractionWindow> {
        try await readDatabase { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT resource, window_from, window_to FROM checkpoints WHERE run_id = ?",
                arguments: [runID])
            return Set(
                rows.map { ExtractionWindow(resource: $0["resource"], from: $0["window_from"], to: $0["window_to"]) })
        }
    }
}
