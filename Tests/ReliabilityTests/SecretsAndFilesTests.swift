import ConnectReconTestSupport
import Foundation
import Sandbox
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Secrets and files: the key is in no byte the tool writes; the history is 0600; reports follow
/// the umask. Run with the real executable, so the process's own umask and output are what is checked.
@Suite("Secrets and file modes (real executable)")
struct SecretsAndFilesTests {
    /// The key's secret part alone, which must not appear either (a log showing `…jWDarjtT1zdp7dc` would leak it).
    static let secret = String(CLI.testKey.dropFirst("sk_test_".count))

    /// Every file below `path`, plus the unzipped contents of every `.xlsx` (its text is compressed on disk).
    static func everyByte(below path: String) throws -> [(String, Data)] {
        var all: [(String, Data)] = []
        for (name, data) in snapshot(path) {
            all.append((name, data))
            if name.hasSuffix(".xlsx") {
                all.append((name + " (unzipped)", Data(try unzipAll(path + "/" + name).utf8)))
            }
        }
        return all
    }

    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int ?? -1) & 0o777
    }

    @Test("run at --log-level trace: no byte written (reports, workbook, database, WAL, output) holds the key")
    func keyNeverWritten() async throws {
        guard Executable.isBuilt else {
            Issue.record("connect-recon was not built next to the tests at \(Executable.url.path)")
            return
        }
        let folder = try TemporaryFolder()
        let logs = try TemporaryFolder()
        try await SandboxServer.with(SmallWorld.options(charges: 60)) { server in
            // Given a run at the most verbose level, and one whose key the server refuses
            let arguments = try SmallWorld.arguments(server: server, folder: folder) + ["--log-level", "trace"]
            let result = try await Executable.run(arguments, environment: ["STRIPE_API_KEY": CLI.testKey], logs: logs)
            #expect(result.status == 0, "\(result.error)")
            #expect(result.error.contains(" info run: range"), "log lines were written")
            let refused = try await Executable.run(
                try SmallWorld.arguments(server: server, folder: folder, database: "live.sqlite") + [
                    "--log-level", "trace",
                ],
                environment: ["STRIPE_API_KEY": CLI.liveKey], logs: logs)
            #expect(refused.status == 2)
            #expect(refused.error.contains("The API key was refused"))

            // Then neither key nor its secret part is in any file of the output folder, the databases (with their
            // -wal/-shm/.lock files), the unzipped workbook, or what the processes printed
            let files = try Self.everyByte(below: folder.url.path) + Self.everyByte(below: logs.url.path)
            #expect(files.contains { $0.0.hasSuffix(".xlsx (unzipped)") })
            #expect(files.contains { $0.0.hasSuffix("history.sqlite") })
            for (name, data) in files {
                for needle in [CLI.testKey, Self.secret, CLI.liveKey, String(CLI.liveKey.dropFirst(8))] {
                    #expect(data.range(of: Data(needle.utf8)) == nil, "\(name) holds a key")
                }
            }
            #expect(result.error.contains("sk_test_…"), "the log shows the key's mode only")
        }
    }

    @Test("the key cannot be given on the command line, and the refusal does not repeat it")
    func noKeyOnTheCommandLine() async throws {
        for arguments in [["--api-key", CLI.testKey], ["--key=\(CLI.testKey)"], [CLI.testKey]] {
            let result = await CLI.run(["run"] + arguments)
            #expect(result.status == 2)
            #expect(!result.error.contains(Self.secret), "\(result.error)")
            #expect(
                result.error.contains("Unknown option")
                    || result.error.contains("Unexpected argument '[redacted key]'"), "\(result.error)")
        }
    }

    @Test(
        "the history is 0600 whatever the umask; report files and folders follow the umask",
        arguments: [(0o022, 0o644, 0o755), (0o027, 0o640, 0o750), (0o002, 0o664, 0o775), (0o077, 0o600, 0o700)])
    func fileModes(umask: Int, fileMode: Int, folderMode: Int) async throws {
        guard Executable.isBuilt else {
            Issue.record("connect-recon was not built next to the tests at \(Executable.url.path)")
            return
        }
        let folder = try TemporaryFolder()
        try await SandboxServer.with(SmallWorld.options(charges: 30)) { server in
            let result = try await Executable.run(
                try SmallWorld.arguments(server: server, folder: folder), environment: ["STRIPE_API_KEY": CLI.testKey],
                logs: folder, shellPrefix: "umask \(String(umask, radix: 8));")
            #expect(result.status == 0, "\(result.error)")
            #expect(Self.mode(folder.path("history.sqlite")) == 0o600, "the database")
            for suffix in ["-wal", "-shm", ".lock"]
            where FileManager.default.fileExists(atPath: folder.path("history.sqlite" + suffix)) {
                #expect(Self.mode(folder.path("history.sqlite" + suffix)) & 0o077 == 0, "history.sqlite\(suffix)")
            }
            let reportFolder = SmallWorld.reportFolder(folder)
            #expect(Self.mode(folder.path("reports")) == folderMode, "the output folder")
            #expect(Self.mode(reportFolder) == folderMode, "the report folder")
            let names = try FileManager.default.contentsOfDirectory(atPath: reportFolder)
            #expect(names.count == csvNames.count + 1, "nine CSV files and the workbook")
            for name in names {
                #expect(Self.mode(reportFolder + "/" + name) == fileMode, "\(name)")
            }
        }
    }
}
