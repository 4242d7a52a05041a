import ConnectReconTestSupport
import Foundation
import History
import Sandbox
import TestSupport
import Testing

/// Faults: a run against a misbehaving API either completes with the same reports as a clean run,
/// or fails cleanly (exit 1, endpoint and Request-Id named, run marked failed, previous report untouched).
@Suite("Faults at the command level")
struct FaultTests {
    @Test("500s, 429 storms, dropped connections, truncated bodies and timeouts: the same CSV bytes as a clean run")
    func faultyRunMatchesCleanRun() async throws {
        let folder = try TemporaryFolder()

        // Given the CSV files of a clean run of a small world, and how many requests that run makes
        let (clean, cleanRequests) = try await SandboxServer.with(SmallWorld.options(charges: 400)) { server in
            let result = await CLI.run(
                try SmallWorld.arguments(server: server, folder: folder, database: "clean.sqlite", out: "clean"),
                environment: ["STRIPE_API_KEY": CLI.testKey])
            #expect(result.status == 0, "\(result.error)")
            return (csvFiles(SmallWorld.reportFolder(folder, out: "clean")), server.requestStats.total)
        }
        #expect(clean.count == csvNames.count)

        // When the same world is reached through a proxy that, on every third request, in turn drops the
        // connection, answers 429 (three times in seven), cuts the body short, answers 500, or answers past the
        // 1-second request timeout. The faults land on request numbers, not on dice: a run of at least
        // 3 × 7 requests meets every one of them, whatever the timing.
        let schedule: [FaultyProxy.Fault] = [.drop, .rateLimit, .truncate, .rateLimit, .serverError, .rateLimit, .slow]
        try #require(cleanRequests >= 3 * schedule.count, "the run makes enough requests for the whole schedule")
        let (result, injected) = try await SandboxServer.with(SmallWorld.options(charges: 400)) { server in
            try await FaultyProxy.with(server, period: 3, faults: schedule) { proxy, stub in
                var arguments = try SmallWorld.arguments(
                    server: server, folder: folder, database: "faulty.sqlite", out: "faulty")
                let base = try #require(arguments.firstIndex(of: "--api-base"))
                arguments[base + 1] = stub.baseURL
                let result = await CLI.run(
                    arguments,
                    environment: [
                        "STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_API_RATE_LIMIT": "200",
                        "CONNECT_RECON_API_ENDPOINT_RATE_LIMIT": "200",
                        "CONNECT_RECON_API_REQUEST_TIMEOUT_SECONDS": "1",
                        "CONNECT_RECON_API_MAX_RETRIES": "12", "CONNECT_RECON_API_CONCURRENCY": "8",
                    ])
                return (result, proxy.injected)
            }
        }

        // Then every fault happened, the run completed, and its CSV files are byte-identical to the clean run's
        #expect(result.status == 0, "\(result.error)")
        for fault in Set(schedule) {
            #expect((injected[fault] ?? 0) > 0, "\(fault) injected: \(injected)")
        }
        let faulty = csvFiles(SmallWorld.reportFolder(folder, out: "faulty"))
        #expect(faulty.keys.sorted() == clean.keys.sorted())
        for (name, data) in clean {
            #expect(faulty[name] == data, "\(name) is byte-identical to the clean run's")
        }
        let store = try HistoryStore.open(path: folder.path("faulty.sqlite"))
        let run = try #require(try store.runs.list().first)
        #expect(run.status == .completed)
        #expect(run.details?.contains("\"retries\"") == true)
    }

    @Test(
        "when the retry budget runs out: exit 1 naming endpoint and Request-Id, run failed, previous report untouched")
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
        let runs = try store.runs.list()
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
