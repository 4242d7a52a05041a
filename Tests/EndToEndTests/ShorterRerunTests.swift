import ConnectReconTestSupport
import Foundation
import ReconCore
import Sandbox
import Testing

@testable import History

/// docs/REPORTS.md: a run resolves an earlier finding only when it judged the finding's object itself. An ad-hoc re-run
/// of a shorter range inside a longer one leaves the other days' findings exactly as they were.
@Suite("A shorter re-run inside a longer range", .serialized)
struct ShorterRerunTests {
    static func findingLines(_ folder: URL) throws -> [String] {
        try ["skipped_transfers.csv", "unreversed_disputes.csv", "exceptions.csv"].flatMap { file in
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").dropFirst().map(String.init)
        }
    }

    @Test(
        "7 days, then 1 day inside them, then the 7 days again: the day resolves nothing, the week finds all open, on PostgreSQL",
        .postgreSQLServer)
    func dayInsideAWeekResolvesNothingOnPostgreSQL() async throws {
        try await dayInsideAWeekResolvesNothing(backend: .postgreSQL)
    }

    @Test(
        "7 days, then 1 day inside them, then the 7 days again: the day resolves nothing, the week finds all open",
        arguments: [TestHistoryBackend.sqlite])
    func dayInsideAWeekResolvesNothing(backend: TestHistoryBackend) async throws {
        // Given a sandbox world and a history
        let sandbox = try await SandboxCommandLine.start(charges: 800, days: 19)
        let database = try backend.newHistory(in: sandbox.folder)
        func run(_ from: String, _ to: String) async throws -> URL {
            let result = await sandbox.run(sandbox.arguments(["run"], from: from, to: to, database: database))
            #expect(result.status == 0, "\(result.error)")
            return sandbox.folder.url.appendingPathComponent("reports").appendingPathComponent("\(from)_\(to)")
        }

        // When the week 2026-11-10 … 2026-11-17 runs, then the day 2026-11-13 inside it
        let week = try await run("2026-11-10", "2026-11-17")
        let weekFindings = try Self.findingLines(week)
        #expect(weekFindings.count >= 15, "the week has findings to resolve wrongly")
        let day = try await run("2026-11-13", "2026-11-14")

        // Then the day resolved nothing: every finding of the week is still there, and the day's own are open
        let store = try HistoryStore.open(try HistoryLocation(database))
        let dayRun = try #require(try store.runs.list().first)
        let details = try #require(dayRun.details?.data(using: .utf8))
        let json = try #require(try JSONSerialization.jsonObject(with: details) as? [String: Any])
        #expect(json["findings_resolved"] as? Int == 0)
        #expect(try Self.findingLines(day).allSatisfy { $0.hasSuffix(",open") })

        // And the week again reports every finding it reported before, all open, none resolved
        let again = try await run("2026-11-10", "2026-11-17")
        let againFindings = try Self.findingLines(again)
        #expect(againFindings.count == weekFindings.count)
        #expect(
            againFindings.allSatisfy { $0.hasSuffix(",open") }, "\(againFindings.filter { !$0.hasSuffix(",open") })")
        #expect(
            Set(againFindings.map { $0.replacingOccurrences(of: ",open", with: "") })
                == Set(weekFindings.map { $0.replacingOccurrences(of: ",new", with: "") }))
        let last = try #require(try store.runs.list().first)
        let lastDetails = try #require(last.details?.data(using: .utf8))
        let lastJSON = try #require(try JSONSerialization.jsonObject(with: lastDetails) as? [String: Any])
        #expect(lastJSON["findings_resolved"] as? Int == 0)
        #expect(lastJSON["findings_new"] as? Int == 0)
        try await sandbox.server.shutdown()
    }
}
