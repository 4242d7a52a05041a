import ConnectReconTestSupport
import Foundation
import ReconCore
import Sandbox
import Testing

@testable import History

@Suite("Crash recovery", .serialized)
struct CrashRecoveryTests {
    @Test("an extraction killed with SIGKILL resumes from its checkpoints and ends with the same history")
    func sigkillDuringExtraction() async throws {
        guard Executable.isBuilt else {
            Issue.record("connect-recon was not built next to the tests at \(Executable.url.path)")
            return
        }
        // Given a sandbox slow enough that extraction takes many seconds even on a busy machine
        var options = SandboxOptions()
        options.latency = .milliseconds(80)
        let sandbox = try await SandboxCommandLine.start(charges: 2_000, days: 10, options)
        let (server, folder, config) = (sandbox.server, sandbox.folder, sandbox.config)
        defer { Task { try? await server.shutdown() } }
        let environment = [
            "STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_API_CONCURRENCY": "2", "CONNECT_RECON_LOG_LEVEL": "warning",
        ]
        func arguments(_ database: String) -> [String] {
            [
                "extract", "--config", config, "--from", "2026-11-01", "--to", "2026-11-11", "--api-base",
                server.baseURL.absoluteString, "--db", folder.url.appendingPathComponent(database).path,
            ]
        }
        let cleanRun = try await Executable.run(
            arguments("clean.sqlite"), environment: environment.merging(["CONNECT_RECON_API_CONCURRENCY": "16"]) { $1 },
            logs: folder)
        #expect(cleanRun.status == 0, "\(cleanRun.error)")

        // When an extraction is killed with SIGKILL once it has committed some windows (another process's
        // commits signal nothing here, so the history is polled, for at most a minute, and only once the
        // sandbox has seen the victim's first request: by then it has created and migrated the history, which
        // the test must not race)
        let killedPath = folder.url.appendingPathComponent("killed.sqlite").path
        let requestsBefore = server.requestStats.total
        let victim = try Executable.start(arguments("killed.sqlite"), environment: environment, logs: folder)
        var committed = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while committed < 2, victim.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            guard server.requestStats.total > requestsBefore else { continue }
            if let store = try? HistoryStore.open(path: killedPath), let run = try? store.runs.list().first {
                committed = (try? await store.runs.completedWindows(run: run.id).count) ?? 0
            }
        }
        #expect(victim.isRunning, "the extraction was still running when killed")
        kill(victim.pid, SIGKILL)
        let killed = await victim.finish()
        #expect(killed.status == -SIGKILL, "\(killed.error)")
        #expect(committed >= 2)

        // Then the next run exits 0, reuses the finished windows, and the history equals the clean one
        let resumedRun = try await Executable.run(arguments("killed.sqlite"), environment: environment, logs: folder)
        #expect(resumedRun.status == 0, "\(resumedRun.error)")
        let resumed = try HistoryStore.open(path: killedPath)
        let clean = try HistoryStore.open(path: folder.url.appendingPathComponent("clean.sqlite").path)
        for kind in ObjectKind.allCases {
            #expect(try resumed.objects.rawObjects(of: kind) == clean.objects.rawObjects(of: kind), "\(kind) objects")
        }
        let runs = try resumed.runs.list()
        #expect(runs.count == 2)
        #expect(runs.first?.status == .completed)
        #expect(runs.first?.resumedFrom == runs.last?.id)
        #expect(runs.last?.status == .failed)
        #expect(runs.last?.message?.contains("interrupted") == true)
    }
}
