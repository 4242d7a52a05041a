import ConnectReconTestSupport
import Foundation
import Testing

@testable import History
import ReconCore
import Sandbox

/// Runs the real `connect-recon` executable, as cron would.
enum Executable {
    /// `connect-recon` next to the test bundle (both are products of the same build).
    static var url: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("connect-recon")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/connect-recon")
    }

    /// Starts the tool with `arguments` and `environment` (added to a minimal one).
    static func start(_ arguments: [String], environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs the tool to the end and returns its exit status.
    static func run(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        let process = try start(arguments, environment: environment)
        process.waitUntilExit()
        return process.terminationStatus
    }
}

@Suite("Crash recovery", .serialized)
struct CrashRecoveryTests {
    @Test("an extraction killed with SIGKILL resumes from its checkpoints and ends with the same history")
    func sigkillDuringExtraction() async throws {
        guard FileManager.default.isExecutableFile(atPath: Executable.url.path) else {
            Issue.record("connect-recon was not built next to the tests at \(Executable.url.path)")
            return
        }
        // Given a sandbox slow enough that extraction takes many seconds even on a busy machine
        var options = SandboxOptions()
        options.charges = 2_000
        options.days = 10
        options.latency = .milliseconds(80)
        let server = try await SandboxServer.start(options)
        defer { Task { try? await server.shutdown() } }
        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", "")
        let environment = [
            "STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_API_CONCURRENCY": "2", "CONNECT_RECON_LOG_LEVEL": "warning",
        ]
        func arguments(_ database: String) -> [String] {
            [
                "extract", "--config", config, "--from", "2026-11-01", "--to", "2026-11-11", "--api-base",
                server.baseURL.absoluteString, "--db", folder.url.appendingPathComponent(database).path,
            ]
        }
        let cleanStatus = try Executable.run(
            arguments("clean.sqlite"), environment: environment.merging(["CONNECT_RECON_API_CONCURRENCY": "16"]) { $1 })
        #expect(cleanStatus == 0)

        // When an extraction is killed with SIGKILL once it has committed some windows
        let killedPath = folder.url.appendingPathComponent("killed.sqlite").path
        let victim = try Executable.start(arguments("killed.sqlite"), environment: environment)
        var committed = 0
        for _ in 0..<600 where committed < 2 && victim.isRunning {
            try await Task.sleep(for: .milliseconds(50))
            if FileManager.default.fileExists(atPath: killedPath), let store = try? HistoryStore.open(path: killedPath),
                let run = try? store.runs().first
            {
                committed = (try? store.completedWindows(run: run.id).count) ?? 0
            }
        }
        #expect(victim.isRunning, "the extraction was still running when killed")
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        #expect(victim.terminationReason == .uncaughtSignal)
        #expect(committed >= 2)

        // Then the next run exits 0, reuses the finished windows, and the history equals the clean one
        let resumedStatus = try Executable.run(arguments("killed.sqlite"), environment: environment)
        #expect(resumedStatus == 0)
        let resumed = try HistoryStore.open(path: killedPath)
        let clean = try HistoryStore.open(path: folder.url.appendingPathComponent("clean.sqlite").path)
        for kind in ObjectKind.allCases {
            #expect(try resumed.rawObjects(of: kind) == clean.rawObjects(of: kind), "\(kind) objects")
        }
        let runs = try resumed.runs()
        #expect(runs.count == 2)
        #expect(runs.first?.status == .completed)
        #expect(runs.first?.resumedFrom == runs.last?.id)
        #expect(runs.last?.status == .failed)
        #expect(runs.last?.message?.contains("interrupted") == true)
    }
}
