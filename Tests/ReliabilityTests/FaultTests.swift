import ConnectReconTestSupport
import Foundation
import History
import Sandbox
import Testing

/// Faults: a run against a misbehaving API either completes with the same reports as a clean run,
/// or fails cleanly (exit 1, endpoint and Request-Id named, run marked failed, previous report untouched).
@Suite("Faults at the command level")
struct FaultTests {
    @Test("500s, 429 storms, dropped connections, truncated bodies and timeouts: the same CSV bytes as a clean run")
    func faultyRunMatchesCleanRun() async throws {
        let folder = try TemporaryFolder()

        // Given the CSV files of a clean run of a small world
        let clean = try await SandboxServer.with(SmallWorld.options(charges: 400)) { server in
            let result = await CLI.run(
                try SmallWorld.arguments(server: server, folder: folder, database: "clean.sqlite", out: "clean"),
                environment: ["STRIPE_API_KEY": CLI.testKey])
            #expect(result.status == 0, "\(result.error)")
            return csvFiles(SmallWorld.reportFolder(folder, out: "clean"))
        }
        #expect(clean.count == csvNames.count)

        // When the same world answers 500s, rate-limits far below what the client sends, drops and cuts
        // short some answers, and delays some past the 1-second request timeout
        // (rates above 5 % so that each fault surely happens among the run's ~60 requests)
        var options = SmallWorld.options(charges: 400)
        options.failRate = 0.1
        options.rateLimit = 8
        options.endpointRateLimit = 4
        options.dropRate = 0.08
        options.truncateRate = 0.08
        options.slowRate = 0.08
        options.slowLatency = .milliseconds(2_500)
        let (result, stats) = try await SandboxServer.with(options) { server in
            let result = await CLI.run(
                try SmallWorld.arguments(server: server, folder: folder, database: "faulty.sqlite", out: "faulty"),
                environment: [
                    "STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_API_RATE_LIMIT": "200",
                    "CONNECT_RECON_API_ENDPOINT_RATE_LIMIT": "200", "CONNECT_RECON_API_REQUEST_TIMEOUT_SECONDS": "1",
                    "CONNECT_RECON_API_MAX_RETRIES": "12", "CONNECT_RECON_API_CONCURRENCY": "8",
                ])
            return (result, server.requestStats)
        }

        // Then every fault happened, the run completed, and its CSV files are byte-identical to the clean run's
        #expect(result.status == 0, "\(result.error)")
        #expect(stats.injectedFailures > 0, "500s injected: \(stats.total) requests")
        #expect(stats.rateLimited > 0, "429s answered")
        #expect(stats.dropped > 0, "connections dropped: \(stats.total) requests")
        #expect(stats.truncated > 0, "bodies truncated")
        #expect(stats.slowed > 0, "answers delayed past the timeout")
        let faulty = csvFiles(SmallWorld.reportFolder(folder, out: "faulty"))
        #expect(faulty.keys.sorted() == clean.keys.sorted())
        for (name, data) in clean {
            #expect(faulty[name] == data, "\(name) is byte-identical to the clean run's")
        }
        let store = try HistoryStore.open(path: folder.path("faulty.sqlite"))
        let run = try #require(try store.runs().first)
        #expect(run.status == .completed)
        #expect(run.details?.contains("\"retries\"") == true)
    }

    @Test("when the retry budget runs out: exit 1 naming endpoint and Request-Id, run failed, previous report untouched")
    func retryBudgetRunsOut() async throws {
        let folder = try TemporaryFolder()

        // Given a completed run and its report folder
        try await SandboxServer.with(SmallWorld.options(charges: 60)) { server in
            let result = await CLI.run(
                try SmallWorld.arguments(server: server, folder: folder), environment: ["STRIPE_API_KEY": CLI.testKey])
            #expect(result.status == 0, "\(result.error)")
        }
        let before = snapshot(SmallWorld.reportFolder(folder))
        #expect(before.count == csvNames.count + 1)

        // When the same range runs again against an API that answers every request 500, without retries
        var options = SmallWorld.options(charges: 60)
        options.failRate = 1.0
        let result = try await SandboxServer.with(options) { server in
            await CLI.run(
                try SmallWorld.arguments(server: server, folder: folder),
                environment: ["STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_API_MAX_RETRIES": "0"])
        }

        // Then it exits 1 with the endpoint, the status and the Request-Id
        #expect(result.status == 1)
        #expect(result.error.contains("GET /v1/"), "\(result.error)")
        #expect(result.error.contains("HTTP 500"))
        #expect(result.error.contains("(Request-Id req_"))
        #expect(!result.error.contains(CLI.testKey))

        // And the history says so, the earlier run is intact, and the previous report is byte-identical
        let store = try HistoryStore.open(path: folder.path("history.sqlite"))
        let runs = try store.runs()
        #expect(runs.count == 2)
        #expect(runs.first?.status == .failed)
        #expect(runs.first?.message?.contains("HTTP 500") == true)
        #expect(runs.first?.message?.contains("Request-Id req_") == true)
        #expect(runs.last?.status == .completed)
        #expect(snapshot(SmallWorld.reportFolder(folder)) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path("reports"))
        #expect(leftovers == [SmallWorld.folderName])
    }
}
