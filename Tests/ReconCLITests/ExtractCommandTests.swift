import ConnectReconTestSupport
import Foundation
import ReconCore
import Sandbox
import Testing

@testable import History
@testable import ReconCLI

@Suite("extract command against the sandbox", .serialized)
struct ExtractCommandTests {
    /// A sandbox of 200 charges over 2026-11-01..11 and the arguments that point `extract` at it.
    static func withSandbox(
        forbidding forbidden: Set<String> = [], _ body: (SandboxServer, TemporaryFolder, [String]) async throws -> Void
    ) async throws {
        var options = SandboxOptions()
        options.restrictedKeyForbiddenResources = forbidden
        let sandbox = try await SandboxCommandLine.start(charges: 200, days: 10, options)
        let (server, folder, config) = (sandbox.server, sandbox.folder, sandbox.config)
        let arguments = [
            "--config", config, "--from", "2026-11-01", "--to", "2026-11-11", "--api-base",
            server.baseURL.absoluteString,
            "--db", folder.url.appendingPathComponent("history.sqlite").path,
        ]
        do {
            try await body(server, folder, arguments)
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    @Test("extract stores the range, prints what it did and records the run")
    func extractSucceeds() async throws {
        try await Self.withSandbox { server, folder, arguments in
            let result = await CLI.run(["extract"] + arguments, environment: ["STRIPE_API_KEY": CLI.testKey])
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output.contains("Extracted"))
            #expect(result.output.contains("charges"))
            let store = try HistoryStore.open(path: folder.url.appendingPathComponent("history.sqlite").path)
            #expect(try store.objects.count(of: .charge) == 200)
            let run = try #require(try store.runs.list().first)
            #expect(run.status == .completed)
            #expect(run.mode == .test)
            #expect(run.details?.contains("\"requests\"") == true)
        }
    }

    @Test("a key the server refuses exits 2 with what to fix, and the run is marked failed")
    func refusedKey() async throws {
        try await Self.withSandbox { _, folder, arguments in
            // The sandbox, like Stripe's test mode, refuses live keys.
            let result = await CLI.run(["extract"] + arguments, environment: ["STRIPE_API_KEY": CLI.liveKey])
            #expect(result.status == 2)
            #expect(result.error.contains("HTTP 401"))
            #expect(result.error.contains("The API key was refused"))
            #expect(!result.error.contains(CLI.liveKey))
            let store = try HistoryStore.open(path: folder.url.appendingPathComponent("history.sqlite").path)
            #expect(try store.runs.list().first?.status == .failed)
        }
    }

    @Test("a restricted key without read access exits 2 naming the resource and the permission to grant")
    func forbiddenResource() async throws {
        try await Self.withSandbox(forbidding: ["application_fees"]) { _, _, arguments in
            let key = "rk_test_51H8abcdefGHIJKLmnop"
            let result = await CLI.run(["extract"] + arguments, environment: ["STRIPE_API_KEY": key])
            #expect(result.status == 2)
            #expect(result.error.contains("HTTP 403"))
            #expect(result.error.contains("lacks read access to application fees"))
            #expect(result.error.contains("rak_applicationfees_read"))
            #expect(!result.error.contains(key))
        }
    }

    @Test("a range entirely inside the settle margin exits 2; one reaching into it is clamped with a warning")
    func settleMargin() async throws {
        try await Self.withSandbox { _, folder, arguments in
            // CLI.now is 2026-11-21T01:30:00Z; a one-hour margin makes 00:30 the newest extractable second.
            let environment = ["STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_RANGE_SETTLE_MARGIN_SECONDS": "3600"]
            let base =
                Array(arguments.prefix(while: { $0 != "--from" }))
                + Array(arguments.drop(while: { $0 != "--api-base" }))
            let tooRecent = await CLI.run(
                ["extract", "--from", "2026-11-21T01:00:00Z", "--to", "2026-11-21T01:20:00Z"] + base,
                environment: environment)
            #expect(tooRecent.status == 2)
            #expect(tooRecent.error.contains("range.settle_margin_seconds"))
            let clamped = await CLI.run(
                ["extract", "--from", "2026-11-20T00:00:00Z", "--to", "2026-11-21T01:20:00Z"] + base,
                environment: environment)
            #expect(clamped.status == 0, "\(clamped.error)")
            #expect(clamped.error.contains("range end moved back"))
            _ = folder
        }
    }

    @Test("a live key on a database of test-mode objects exits 2 before any request")
    func modesNeverShareADatabase() async throws {
        try await Self.withSandbox { server, _, arguments in
            let first = await CLI.run(["extract"] + arguments, environment: ["STRIPE_API_KEY": CLI.testKey])
            #expect(first.status == 0)
            let requests = server.requestStats.total
            let live = await CLI.run(["extract"] + arguments, environment: ["STRIPE_API_KEY": CLI.liveKey])
            #expect(live.status == 2)
            #expect(live.error.contains("holds test-mode objects, but this run uses a live-mode key"))
            #expect(server.requestStats.total == requests)
        }
    }

    @Test("a second run on the same database waits, then exits 1 naming the first")
    func singleWriter() async throws {
        try await Self.withSandbox { _, folder, arguments in
            let path = folder.url.appendingPathComponent("history.sqlite").path
            let holder = try await HistoryLock.acquire(
                databasePath: path, wait: .zero, holder: "run 2026-11-01_2026-11-11")
            let result = await CLI.run(
                ["extract"] + arguments,
                environment: ["STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_OUTPUT_LOCK_WAIT_SECONDS": "1"])
            #expect(result.status == 1)
            #expect(result.error.contains("in use by another run (pid \(getpid())"))
            #expect(result.error.contains("run 2026-11-01_2026-11-11"))
            _ = holder
        }
    }

    @Test("at the most verbose level, no byte the tool writes contains the key")
    func keyNeverWritten() async throws {
        try await Self.withSandbox { _, folder, arguments in
            let result = await CLI.run(
                ["extract", "--log-level", "trace"] + arguments, environment: ["STRIPE_API_KEY": CLI.testKey])
            #expect(result.status == 0)
            #expect(!result.output.contains(CLI.testKey))
            #expect(!result.error.contains(CLI.testKey))
            for file in folder.contents() {
                let data = try Data(contentsOf: folder.url.appendingPathComponent(file))
                #expect(data.range(of: Data(CLI.testKey.utf8)) == nil, "\(file) holds the key")
            }
        }
    }
}
