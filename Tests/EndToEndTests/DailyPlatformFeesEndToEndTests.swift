import ConnectReconTestSupport
import Foundation
import History
import ReconCore
import Sandbox
import TestSupport
import Testing

/// Issue 27: the history holds the report's DPF, not a second formula. Every completed reconcile records its
/// report's daily series in `daily_platform_fees`, cross-currency fees included as the report converts them; a
/// re-run of the range records its own rows beside the earlier run's; a run that fails records none.
@Suite("Daily platform fees in the history", .serialized)
struct DailyPlatformFeesEndToEndTests {
    static let from = "2026-11-03"
    static let to = "2026-11-10"
    static let days = (3...9).map { "2026-11-0\($0)" }

    @Test(
        "each completed run records its report's daily DPF, cross-currency fees included; a failed run records none, on PostgreSQL",
        .postgreSQLServer)
    func completedRunsRecordTheReportsFiguresOnPostgreSQL() async throws {
        try await completedRunsRecordTheReportsFigures(backend: .postgreSQL)
    }

    @Test(
        "each completed run records its report's daily DPF, cross-currency fees included; a failed run records none",
        arguments: [TestHistoryBackend.sqlite])
    func completedRunsRecordTheReportsFigures(backend: TestHistoryBackend) async throws {
        // Given a world with cross-border application fees, and a history
        let sandbox = try await SandboxCommandLine.start(charges: 600, days: 19)
        let folder = sandbox.folder
        let database = try backend.newHistory(in: folder)
        func command(_ name: String, out: String) async -> (status: Int32, error: String) {
            let result = await sandbox.run(
                sandbox.arguments([name], from: Self.from, to: Self.to, out: out, database: database))
            return (result.status, result.error)
        }

        // When the range is run, then reconciled again into another folder
        let run = await command("run", out: "first")
        #expect(run.status == 0, "\(run.error)")
        let again = await command("reconcile", out: "second")
        #expect(again.status == 0, "\(again.error)")
        try await sandbox.server.shutdown()

        // Then each run's rows are its own report's daily series, adding up to its Summary's DPF per currency, with
        // the cross-currency fees the report converted
        let store = try HistoryStore.open(try HistoryLocation(database))
        let completed = try store.runs.list().map(\.id).sorted()
        #expect(completed.count == 2)
        for (run, out) in zip(completed, ["first", "second"]) {
            let fees = try ReportPlatformFees(
                report: folder.url.appendingPathComponent(out).appendingPathComponent("\(Self.from)_\(Self.to)"))
            #expect(fees.crossCurrencyCharges > 0 && fees.crossCurrencyFee != 0, "cross-currency fees in DPF")
            let rows = try TestHistoryBackend.query(
                database,
                """
                SELECT day, currency, destination_charges, destination_platform_fee FROM daily_platform_fees
                WHERE run_id = \(run) ORDER BY currency, day
                """)
            fees.expectMatches(rows, days: Self.days, "\(backend) run \(run)")
        }
        let first = try store.runs.dailyPlatformFees(run: completed[0])
        #expect(first.count >= Self.days.count)
        #expect(try store.runs.dailyPlatformFees(run: completed[1]) == first, "the same history, the same figures")

        // And when a reconcile fails after the rules (its report cannot be moved into place: a file is in the way)
        try FileManager.default.createDirectory(atPath: folder.path("blocked"), withIntermediateDirectories: true)
        try folder.write("blocked/\(Self.from)_\(Self.to)", "a file, not a report folder\n")
        let failed = await command("reconcile", out: "blocked")
        #expect(failed.status == 1, "\(failed.error)")
        let last = try #require(try store.runs.list().first)
        #expect(last.status == .failed && last.id > completed[1])
        #expect(last.message?.contains("blocked/\(Self.from)_\(Self.to)") == true, "\(last.message ?? "")")
        let judged = try TestHistoryBackend.query(database, "SELECT COUNT(*) FROM findings WHERE last_run = \(last.id)")
        #expect(Int(judged) ?? 0 > 0, "it failed after the rules, its findings recorded")

        // Then it recorded no figures, and the completed runs' are as they were
        #expect(try store.runs.dailyPlatformFees(run: last.id).isEmpty)
        let runs = try TestHistoryBackend.query(database, "SELECT DISTINCT run_id FROM daily_platform_fees ORDER BY 1")
        #expect(runs == completed.map(String.init).joined(separator: "\n"))
        #expect(try store.runs.dailyPlatformFees(run: completed[0]) == first)
    }
}
