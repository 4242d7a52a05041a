import ConnectReconTestSupport
import Foundation
import History
import ReconCore
import Sandbox
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `run` killed with SIGKILL at many points, and two runs started at once on one database, with the
/// real executable.
@Suite("SIGKILL and concurrent runs (real executable)", .serialized)
struct CrashAndConcurrencyTests {
    static let environment = [
        "STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_LOG_LEVEL": "warning", "CONNECT_RECON_API_CONCURRENCY": "4",
    ]

    /// The hidden `.tmp-`/`.old-` folders in `out`.
    static func leftovers(_ out: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter {
            $0.contains(".tmp-") || $0.contains(".old-")
        }
    }

    /// Each CSV's text without the status column, and whether any line repeats.
    static func comparable(_ files: [String: Data]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: files.map { ($0.key, withoutStatus($0.value, file: $0.key)) })
    }

    /// Polls `condition` on a thread of its own (not the busy cooperative pool, so the moment is caught within a
    /// fraction of a millisecond) until it holds, waits `after` milliseconds more, and kills `victim` with
    /// SIGKILL. Nothing signals these moments across the process boundary, hence the polling; it ends when the
    /// victim exits or after a minute. Returns whether the condition was seen and whether the process was still
    /// running at the kill.
    static func terminate(
        _ victim: RunningProgram, when condition: @escaping @Sendable () -> Bool, after: Int = 0
    ) async -> (seen: Bool, running: Bool) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let deadline = ContinuousClock.now + .seconds(60)
                var seen = false
                while victim.isRunning, ContinuousClock.now < deadline {
                    if condition() {
                        seen = true
                        break
                    }
                    usleep(200)
                }
                // The delay after the moment is deliberate: it spreads the kills over the report's writing.
                if after > 0 { usleep(useconds_t(after * 1_000)) }
                let running = victim.isRunning
                kill(victim.pid, SIGKILL)
                continuation.resume(returning: (seen, running))
            }
        }
    }

    @Test(
        "run killed with SIGKILL during extraction and report writing: the next run equals an uninterrupted one, on PostgreSQL",
        .postgreSQLServer)
    func sigkillDuringRunOnPostgreSQL() async throws { try await sigkillDuringRun(backend: .postgreSQL) }

    @Test(
        "run killed with SIGKILL during extraction and report writing: the next run equals an uninterrupted one",
        arguments: [TestHistoryBackend.sqlite])
    func sigkillDuringRun(backend: TestHistoryBackend) async throws {
        guard Executable.isBuilt else {
            Issue.record("connect-recon was not built next to the tests at \(Executable.url.path)")
            return
        }
        let folder = try TemporaryFolder()
        try await SandboxServer.with(SmallWorld.options(charges: 300)) { server in
            // Given an uninterrupted run's reports and history
            let cleanRun = try await Executable.run(
                try SmallWorld.arguments(server: server, folder: folder, database: "clean.sqlite", out: "clean"),
                environment: Self.environment, logs: folder)
            #expect(cleanRun.status == 0, "\(cleanRun.error)")
            let clean = csvFiles(SmallWorld.reportFolder(folder, out: "clean"))
            #expect(clean.count == csvNames.count)

            // When runs are killed: twice during extraction (once the sandbox has answered the victim's first
            // request, and its tenth), then at growing delays after report writing began
            let database = try backend.newHistory(in: folder)
            let arguments = try SmallWorld.arguments(server: server, folder: folder, database: database)
            let out = folder.path("reports")
            let reportFolder = SmallWorld.reportFolder(folder)
            var killedWhileWriting = 0
            var someVictimCompleted = false
            let plans: [(afterRequests: Int?, afterWriting: Int)] =
                [(1, 0), (10, 0)] + [0, 1, 3, 6, 10, 20, 40, 80].map { (nil, $0) }
            for plan in plans {
                let requestsBefore = server.requestStats.total
                let victim = try Executable.start(arguments, environment: Self.environment, logs: folder)
                let moment: @Sendable () -> Bool
                if let requests = plan.afterRequests {
                    moment = { server.requestStats.total >= requestsBefore + requests }
                } else {
                    // Once the victim's temporary report folder appears (an outcome, not a time).
                    let marker = ".tmp-\(victim.pid)-"
                    moment = { Self.leftovers(out).contains { $0.contains(marker) } }
                }
                let (seen, wasRunning) = await Self.terminate(victim, when: moment, after: plan.afterWriting)
                let writing = plan.afterRequests == nil && seen
                let ended = await victim.finish()
                if wasRunning && writing && ended.status == -SIGKILL { killedWhileWriting += 1 }
                if ended.status == 0 { someVictimCompleted = true }

                // Then at every moment, a report folder that exists is complete and right
                if FileManager.default.fileExists(atPath: reportFolder) {
                    let visible = csvFiles(reportFolder)
                    #expect(Self.comparable(visible) == Self.comparable(clean), "a visible report is whole")
                    #expect(snapshot(reportFolder).count == csvNames.count + 1, "every CSV file and the workbook")
                }
            }
            #expect(killedWhileWriting >= 2, "some kills landed while the report was being written")

            // A victim killed after recording its run as completed (before the process exited) did report its
            // findings: then `open` is right. Ask the history, not the exit status.
            if let store = try? HistoryStore.open(try HistoryLocation(database)),
                (try? store.runs.list().contains { $0.status == .completed }) == true
            {
                someVictimCompleted = true
            }

            // When the range runs once more, uninterrupted
            let final = try await Executable.run(arguments, environment: Self.environment, logs: folder)

            // Then it exits 0, leaves no temporary folders, and writes the uninterrupted run's rows once each
            #expect(final.status == 0, "\(final.error)")
            #expect(Self.leftovers(out).isEmpty, "no orphan .tmp-/.old- folders: \(Self.leftovers(out))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [SmallWorld.folderName])
            let written = csvFiles(reportFolder)
            #expect(Self.comparable(written) == Self.comparable(clean))
            for (name, data) in written {
                let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
                #expect(Set(lines).count == lines.count, "\(name) has no duplicate rows")
            }
            let resumed = try HistoryStore.open(try HistoryLocation(database))
            let reference = try HistoryStore.open(path: folder.path("clean.sqlite"))
            for kind in ObjectKind.allCases {
                #expect(
                    try resumed.objects.rawObjects(of: kind) == reference.objects.rawObjects(of: kind),
                    "\(kind) objects")
            }
            // The sqlite3 tool runs the check (.ci/run installs it): without it the check fails, never passes unseen.
            if backend == .sqlite { #expect(try integrityCheck(database) == "ok", "PRAGMA integrity_check (sqlite3)") }
            // A finding no completed report ever showed must still be `new`: unless a victim finished before
            // its kill arrived, the final run's findings files equal the uninterrupted run's, statuses included.
            if !someVictimCompleted {
                for name in ["skipped_transfers.csv", "unreversed_disputes.csv", "exceptions.csv"] {
                    #expect(written[name] == clean[name], "\(name): statuses as in an uninterrupted run")
                }
            }
        }
    }

    @Test(
        "two runs started at once: one proceeds, the other exits 1 naming it; nothing corrupted, on PostgreSQL",
        .postgreSQLServer)
    func twoRunsAtOnceOnPostgreSQL() async throws { try await twoRunsAtOnce(backend: .postgreSQL) }

    @Test(
        "two runs started at once: one proceeds, the other exits 1 naming it; nothing corrupted",
        arguments: [TestHistoryBackend.sqlite])
    func twoRunsAtOnce(backend: TestHistoryBackend) async throws {
        guard Executable.isBuilt else {
            Issue.record("connect-recon was not built next to the tests at \(Executable.url.path)")
            return
        }
        let folder = try TemporaryFolder()
        // A world slow enough that one run takes well over the second run's 1-second wait.
        var options = SmallWorld.options(charges: 150)
        options.latency = .milliseconds(150)
        let database = try backend.newHistory(in: folder)
        try await SandboxServer.with(options) { server in
            let arguments = try SmallWorld.arguments(server: server, folder: folder, database: database)
            var environment = Self.environment
            environment["CONNECT_RECON_OUTPUT_LOCK_WAIT_SECONDS"] = "1"
            environment["CONNECT_RECON_API_CONCURRENCY"] = "2"

            // When two processes start the same run on the same database at once
            let first = try Executable.start(arguments, environment: environment, logs: folder)
            let second = try Executable.start(arguments, environment: environment, logs: folder)
            let results = [await first.finish(), await second.finish()]
            let pids = [first.pid, second.pid]

            // Then exactly one completes and the other exits 1 naming the first's pid and range
            #expect(results.map(\.status).sorted() == [0, 1], "\(results.map(\.error))")
            guard let loser = results.firstIndex(where: { $0.status == 1 }) else { return }
            let winner = 1 - loser
            #expect(
                results[loser].error.contains("is in use by another run (pid \(pids[winner])"),
                "\(results[loser].error)")
            #expect(results[loser].error.contains("run \(SmallWorld.folderName)"))

            // And the database is intact, holds one completed run, and reconcile reproduces the reports
            // The sqlite3 tool runs the check (.ci/run installs it): without it the check fails, never passes unseen.
            if backend == .sqlite { #expect(try integrityCheck(database) == "ok", "PRAGMA integrity_check (sqlite3)") }
            let store = try HistoryStore.open(try HistoryLocation(database))
            #expect(try store.runs.list().map(\.status) == [.completed])
            let afterRun = csvFiles(SmallWorld.reportFolder(folder))
            let reconciled = await CLI.run(
                try SmallWorld.arguments("reconcile", server: nil, folder: folder, database: database))
            #expect(reconciled.status == 0, "\(reconciled.error)")
            let afterReconcile = csvFiles(SmallWorld.reportFolder(folder))
            #expect(afterReconcile.count == csvNames.count)
            #expect(Self.comparable(afterReconcile) == Self.comparable(afterRun))
            for name in ["platform_fees.csv", "ledger.csv", "summary.csv"] {
                #expect(afterReconcile[name] == afterRun[name], "\(name) byte-identical")
            }
        }
    }
}
