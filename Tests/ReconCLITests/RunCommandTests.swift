import ConnectReconTestSupport
import Foundation
import Sandbox
import TestSupport
import Testing

@testable import History

/// `run`, `reconcile` and `history` against the sandbox: exit statuses, refusals and listings (what the reports
/// hold is compared with the ground truth in EndToEndTests).
@Suite("run, reconcile and history against the sandbox", .serialized)
struct RunCommandTests {
    /// 2026-11-01 … 2026-11-20: ends before CLI.now (2026-11-21T01:30Z) minus the settle margin.
    static let from = "2026-11-01"
    static let to = "2026-11-20"

    @Test(
        "--fail-on-findings exits 3 when there are new findings, 0 when they are all open, on PostgreSQL",
        .postgreSQLServer)
    func failOnFindingsOnPostgreSQL() async throws { try await failOnFindings(backend: .postgreSQL) }

    @Test(
        "--fail-on-findings exits 3 when there are new findings, 0 when they are all open",
        arguments: [TestHistoryBackend.sqlite])
    func failOnFindings(backend: TestHistoryBackend) async throws {
        let sandbox = try await SandboxCommandLine.start(charges: 300, days: 19)
        let arguments = sandbox.arguments(
            ["run", "--fail-on-findings"], from: Self.from, to: Self.to,
            database: try backend.newHistory(in: sandbox.folder))
        let first = await sandbox.run(arguments)
        #expect(first.status == 3)
        let second = await sandbox.run(arguments)
        #expect(second.status == 0)
        try await sandbox.server.shutdown()
    }

    @Test(
        "reconcile refuses a range the history never extracted, and a database that does not exist, on PostgreSQL",
        .postgreSQLServer)
    func reconcileNeedsAnExtractionOnPostgreSQL() async throws {
        try await reconcileNeedsAnExtraction(backend: .postgreSQL)
    }

    @Test(
        "reconcile refuses a range the history never extracted, and a database that does not exist",
        arguments: [TestHistoryBackend.sqlite])
    func reconcileNeedsAnExtraction(backend: TestHistoryBackend) async throws {
        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", "")
        let database = try backend.newHistory(in: folder)
        let missing = await CLI.run([
            "reconcile", "--config", config, "--db", database, "--from", "2026-11-01", "--to", "2026-11-02",
        ])
        #expect(missing.status == 2)
        #expect(missing.error.contains("There is no history database"))
        switch backend {
        case .sqlite: #expect(!FileManager.default.fileExists(atPath: database))
        case .postgreSQL: #expect(try TestHistoryBackend.psql(database, "SELECT to_regclass('runs')") == "")
        }
        _ = try HistoryStore.open(try HistoryLocation(database))
        let empty = await CLI.run([
            "reconcile", "--config", config, "--db", database, "--from", "2026-11-01", "--to", "2026-11-02",
        ])
        #expect(empty.status == 2)
        #expect(empty.error.contains("no completed extraction"))
    }

    @Test("history lists runs as a table and as JSON, on PostgreSQL", .postgreSQLServer)
    func historyCommandOnPostgreSQL() async throws { try await historyCommand(backend: .postgreSQL) }

    @Test("history lists runs as a table and as JSON", arguments: [TestHistoryBackend.sqlite])
    func historyCommand(backend: TestHistoryBackend) async throws {
        let sandbox = try await SandboxCommandLine.start(charges: 100, days: 19)
        let config = sandbox.config
        let database = try backend.newHistory(in: sandbox.folder)
        let run = await sandbox.run(
            sandbox.arguments(["run"], from: Self.from, to: Self.to, out: "r", database: database))
        #expect(run.status == 0)
        try await sandbox.server.shutdown()
        let table = await CLI.run(["history", "--config", config, "--db", database])
        #expect(table.status == 0)
        #expect(table.output.contains("run  command  range"))
        #expect(table.output.contains("2026-11-01_2026-11-20  completed"))
        #expect(table.output.contains("usd DPF "))
        let json = await CLI.run(["history", "--config", config, "--db", database, "--json"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["status"] as? String == "completed")
        #expect(runs.first?["from"] as? String == "2026-11-01T00:00:00Z")
        #expect((runs.first?["details"] as? [String: Any])?["totals"] != nil)
    }
}
