import ConnectReconTestSupport
import Foundation
import History
import Sandbox
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The output folder not writable, or the disk full: exit 1 with a clear message, the run marked
/// failed, earlier runs and the previous report intact.
@Suite("Output not writable and disk full")
struct DiskTests {
    @Test("an output folder below a regular file: exit 1 naming it, run failed, earlier run and report intact")
    func outputBelowAFile() async throws {
        let folder = try TemporaryFolder()
        try await SandboxServer.with(SmallWorld.options(charges: 60)) { server in
            // Given a completed run
            let first = await CLI.run(
                try SmallWorld.arguments(server: server, folder: folder), environment: ["STRIPE_API_KEY": CLI.testKey])
            #expect(first.status == 0, "\(first.error)")
            let before = snapshot(SmallWorld.reportFolder(folder))

            // When the next run's output folder lies below a regular file (root ignores permissions, not this)
            try folder.write("blocker", "a file, not a folder\n")
            var arguments = try SmallWorld.arguments(server: server, folder: folder)
            let out = folder.path("blocker") + "/reports"
            arguments[arguments.firstIndex(of: "--out")! + 1] = out
            let result = await CLI.run(arguments, environment: ["STRIPE_API_KEY": CLI.testKey])

            // Then it exits 1 with a message naming the path and why
            #expect(result.status == 1)
            #expect(result.error.contains(out), "\(result.error)")
            #expect(result.error.contains("is a file, not a folder (or lies below a file)"))
            #expect(result.error.contains("--out"), "the message says how to fix it: \(result.error)")

            // And the history is consistent: this run failed with the message, the first is still completed
            let store = try HistoryStore.open(path: folder.path("history.sqlite"))
            let runs = try store.runs.list()
            #expect(runs.map(\.status) == [.failed, .completed])
            #expect(runs.first?.message?.contains(out) == true)
            #expect(snapshot(SmallWorld.reportFolder(folder)) == before)
        }
    }

    /// Runs `mount`/`umount`; returns whether it worked.
    static func system(_ arguments: [String]) -> Bool {
        let result = try? ExternalProgram.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$@\"", "sh"] + arguments)
        return result?.status == 0
    }

    /// Whether this process may mount a tmpfs (root, outside a restricted container): the only way to stage a
    /// full disk. CI runs as root, so there it runs.
    static let canMountTmpfs: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("tmpfs-probe-\(UUID().uuidString)")
            .path
        guard (try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)) != nil else {
            return false
        }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard system(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", probe]) else { return false }
        return system(["umount", probe])
    }()

    @Test(
        "a full disk while writing the report: exit 1 'disk is full', previous report byte-identical, no leftovers",
        .enabled(if: canMountTmpfs, "needs permission to mount a tmpfs (root) to stage a full disk; CI runs as root"))
    func diskFull() async throws {
        let folder = try TemporaryFolder()
        let mountPoint = folder.path("small-disk")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try #require(Self.system(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", mountPoint]))
        defer { _ = Self.system(["umount", mountPoint]) }
        let out = "small-disk/reports"

        try await SandboxServer.with(SmallWorld.options(charges: 150)) { server in
            // Given a completed run whose report fills most of a small disk
            let arguments = try SmallWorld.arguments(server: server, folder: folder, out: out)
            let first = await CLI.run(arguments, environment: ["STRIPE_API_KEY": CLI.testKey])
            #expect(first.status == 0, "\(first.error)")
            let reportFolder = SmallWorld.reportFolder(folder, out: out)
            let before = snapshot(reportFolder)
            var info = statvfs()
            #expect(statvfs(mountPoint, &info) == 0)
            let used = Int(info.f_blocks - info.f_bfree) * Int(info.f_frsize)
            // Room for the report once and a half: the next one, built beside it, cannot fit.
            let size = (used + used / 2 + 4095) / 4096 * 4096
            #expect(Self.system(["mount", "-o", "remount,size=\(size)", mountPoint]))

            // When the range runs again
            let second = await CLI.run(arguments, environment: ["STRIPE_API_KEY": CLI.testKey])

            // Then it exits 1 saying the disk is full, and nothing of the previous report changed
            #expect(second.status == 1)
            #expect(
                second.error.contains("The disk is full") || second.error.contains("Check free disk space"),
                "\(second.error)")
            #expect(snapshot(reportFolder) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path(out)) == [SmallWorld.folderName])
            let store = try HistoryStore.open(path: folder.path("history.sqlite"))
            #expect(try store.runs.list().map(\.status) == [.failed, .completed])

            // And once there is room again, the next run completes
            #expect(Self.system(["mount", "-o", "remount,size=16m", mountPoint]))
            let third = await CLI.run(arguments, environment: ["STRIPE_API_KEY": CLI.testKey])
            #expect(third.status == 0, "\(third.error)")
        }
    }

    @Test("findings first seen by a run that failed to write its report are still new in the next run")
    func findingsOfAFailedRunStayNew() async throws {
        let folder = try TemporaryFolder()
        try await SandboxServer.with(SmallWorld.options(charges: 150)) { server in
            // Given a run that fetched and reconciled, then could not write its report
            try folder.write("blocker", "")
            var arguments = try SmallWorld.arguments(server: server, folder: folder)
            let index = arguments.firstIndex(of: "--out")! + 1
            arguments[index] = folder.path("blocker") + "/reports"
            let failed = await CLI.run(arguments, environment: ["STRIPE_API_KEY": CLI.testKey])
            #expect(failed.status == 1)

            // When the range runs again with a writable output folder, failing on new findings
            arguments[index] = folder.path("reports")
            let next = await CLI.run(arguments + ["--fail-on-findings"], environment: ["STRIPE_API_KEY": CLI.testKey])

            // Then nobody has seen the findings yet: they are new, and --fail-on-findings says so
            #expect(next.status == 3)
            let skipped = csvFiles(SmallWorld.reportFolder(folder))["skipped_transfers.csv"] ?? Data()
            let rows = String(decoding: skipped, as: UTF8.self).split(separator: "\n").dropFirst()
            #expect(!rows.isEmpty && rows.allSatisfy { $0.hasSuffix(",new") })
        }
    }
}
