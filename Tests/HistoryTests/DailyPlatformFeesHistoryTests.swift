import Foundation
import GRDB
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// `daily_platform_fees` (schema v9): a completed run's report figures, recorded in the transaction that records the
/// run completed; none for a failed run; every run its own rows.
@Suite("Daily platform fees")
struct DailyPlatformFeesHistoryTests {
    static func rows(_ fee: Int64) -> [DailyPlatformFeeRow] {
        [
            DailyPlatformFeeRow(day: "2026-11-20", currency: .eur, destinationCharges: 2, destinationPlatformFee: 0),
            DailyPlatformFeeRow(day: "2026-11-21", currency: .eur, destinationCharges: 0, destinationPlatformFee: 0),
            DailyPlatformFeeRow(day: "2026-11-20", currency: .usd, destinationCharges: 3, destinationPlatformFee: fee),
            DailyPlatformFeeRow(day: "2026-11-21", currency: .usd, destinationCharges: 1, destinationPlatformFee: -7),
        ]
    }

    @Test(
        "a completed run records its rows, a failed run none, a re-run its own beside the first's, on PostgreSQL",
        .postgreSQLServer)
    func completedRunsOnlyOnPostgreSQL() throws { try completedRunsOnly(backend: .postgreSQL) }

    @Test(
        "a completed run records its rows, a failed run none, a re-run its own beside the first's",
        arguments: [TestHistoryBackend.sqlite])
    func completedRunsOnly(backend: TestHistoryBackend) throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()

        // Given a completed reconcile, a failed one, and a re-run of the range with other figures
        let first = try store.runs.beginRun(start("reconcile")).runID
        try store.runs.completeRun(first, finishedAt: 2, details: "{}", dailyPlatformFees: Self.rows(1_234))
        let failed = try store.runs.beginRun(start("reconcile")).runID
        try store.runs.finishRun(failed, status: .failed, finishedAt: 3, message: "disk full", details: nil)
        let again = try store.runs.beginRun(start("reconcile")).runID
        try store.runs.completeRun(again, finishedAt: 4, details: "{}", dailyPlatformFees: Self.rows(9_223_372_036_854))

        // Then each completed run holds its own figures, in the report's order, and the failed run none
        #expect(try store.runs.dailyPlatformFees(run: first) == Self.rows(1_234))
        #expect(try store.runs.dailyPlatformFees(run: failed).isEmpty)
        #expect(try store.runs.dailyPlatformFees(run: again) == Self.rows(9_223_372_036_854))
        #expect(try store.runs.list().map(\.status) == [.completed, .failed, .completed])
        #expect(try store.runs.list().first?.details == "{}")
    }

    @Test(
        "the figures and the run's completion are one transaction: when the rows fail, the run is not completed, on PostgreSQL",
        .postgreSQLServer)
    func oneTransactionOnPostgreSQL() throws { try oneTransaction(backend: .postgreSQL) }

    @Test(
        "the figures and the run's completion are one transaction: when the rows fail, the run is not completed",
        arguments: [TestHistoryBackend.sqlite])
    func oneTransaction(backend: TestHistoryBackend) throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start("reconcile")).runID
        let twice = Self.rows(5) + Self.rows(5).prefix(1)
        #expect(throws: HistoryError.self) {
            try store.runs.completeRun(run, finishedAt: 2, details: "{}", dailyPlatformFees: twice)
        }
        #expect(try store.runs.list().first?.status == .running)
        #expect(try store.runs.dailyPlatformFees(run: run).isEmpty)
    }

    @Test("v9 drops the view that recomputed DPF and adds the table, keeping a v8 history's rows")
    func migration() throws {
        let queue = try DatabaseQueue()
        try HistoryMigrations.migrator.migrate(queue, upTo: "v8-late-outcomes")
        func views() throws -> [String] {
            try queue.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
            }
        }
        #expect(try views() == ["findings_status", "ledger_daily", "platform_fees_per_charge"])
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO runs (command, range_from, range_to, time_zone, mode, status, started_at, pid,
                                      tool_version, stripe_version, api_base)
                    VALUES ('run', 0, 86400, 'UTC', 'test', 'completed', 1, 1, '0.1.0', 'v', 'http://127.0.0.1:1')
                    """)
        }
        try HistoryMigrations.migrator.migrate(queue)
        #expect(try views() == ["findings_status", "ledger_daily"])
        let (columns, primaryKey, references, runs, rows) = try queue.read { db in
            (
                try db.columns(in: "daily_platform_fees").map(\.name),
                try db.primaryKey("daily_platform_fees").columns,
                try db.foreignKeys(on: "daily_platform_fees").map(\.destinationTable),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM runs"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM daily_platform_fees")
            )
        }
        #expect(columns == ["run_id", "day", "currency", "destination_charges", "destination_platform_fee"])
        #expect(primaryKey == ["run_id", "day", "currency"] && references == ["runs"])
        #expect(runs == 1 && rows == 0, "the run is kept; no figures for a run of before v9")
    }
}
