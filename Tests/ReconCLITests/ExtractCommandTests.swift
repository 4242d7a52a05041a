import Foundation
import Testing

@testable import History
@testable import ReconCLI
import ReconCore
import Sandbox

@Suite("extract command against the sandbox", .serialized)
struct ExtractCommandTests {
    /// A sandbox of 200 charges over 2026-11-01..11 and the arguments that point `extract` at it.
    static func withSandbox(_ body: (SandboxServer, TemporaryFolder, [String]) async throws -> Void) async throws {
        var options = SandboxOptions()
        options.charges = 200
        options.days = 10
        let server = try await SandboxServer.start(options)
        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", "")
        let arguments = [
            "--config", config, "--from", "2026-11-01", "--to", "2026-11-11", "--api-base", server.baseURL.absoluteString,
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
            #expect(try store.count(of: .charge) == 200)
            let run = try #require(try store.runs().first)
            #expect(run.status == .completed)
            #expect(run.mode == "test")
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
            #expect(try store.runs().first?.status == .failed)
        }
    }

    @Test("a second run on the same database waits, then exits 1 naming the first")
    func singleWriter() async throws {
        try await Self.withSandbox { _, folder, arguments in
            let path = folder.url.appendingPathComponent("history.sqlite").path
            let holder = try await HistoryLock.acquire(databasePath: path, wait: .zero, holder: "run 2026-11-01_2026-11-11")
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
