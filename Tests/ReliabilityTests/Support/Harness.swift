import ConnectReconTestSupport
import Foundation
import ReconCLI
import Sandbox
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Files

/// Every regular file below `folder` (hidden ones included), by relative path, with its bytes.
func snapshot(_ folder: String) -> [String: Data] {
    var files: [String: Data] = [:]
    for relative in FileManager.default.subpaths(atPath: folder) ?? [] {
        let path = folder + "/" + relative
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
        files[relative] = FileManager.default.contents(atPath: path)
    }
    return files
}

/// The CSV files of a report folder, by name.
func csvFiles(_ folder: String) -> [String: Data] {
    snapshot(folder).filter { $0.key.hasSuffix(".csv") && !$0.key.contains("/") }
}

/// The names of the nine CSV files every report folder holds.
let csvNames = [
    "platform_fees.csv", "skipped_transfers.csv", "unreversed_disputes.csv", "exceptions.csv", "ledger.csv",
    "summary.csv", "connected_accounts.csv", "payouts.csv", "payout_transactions.csv",
]

/// A CSV's text with each line's last field (`status`: new/open) cut off, for files that have one.
func withoutStatus(_ data: Data, file: String) -> String {
    let text = String(decoding: data, as: UTF8.self)
    guard ["skipped_transfers.csv", "unreversed_disputes.csv", "exceptions.csv"].contains(file) else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        guard let comma = line.lastIndex(of: ",") else { return String(line) }
        return String(line[..<comma])
    }.joined(separator: "\n")
}

/// Runs one SQL statement on an SQLite file with the sqlite3 shell, else Python's sqlite3 module, and returns
/// what it printed (`nil` when neither is installed).
/// Whether ``sqlite(_:_:readOnly:)`` has a tool to run (CI installs `sqlite3`).
let hasSQLiteTool =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")
    || FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

func sqlite(_ database: String, _ statement: String, readOnly: Bool = false) throws -> String? {
    let process = Process()
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = (readOnly ? ["-readonly"] : []) + [database, statement]
    } else if FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c",
            "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nfor row in c.execute(sys.argv[2]): print(*row, sep='|')\nc.commit()",
            database, statement,
        ]
    } else {
        return nil
    }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// `PRAGMA integrity_check` of an SQLite file (`nil` when no SQLite shell is installed).
func integrityCheck(_ database: String) throws -> String? {
    try sqlite(database, "PRAGMA integrity_check;", readOnly: true)
}

/// Every entry of a zip file, concatenated as text (through `unzip`, else Python's zipfile).
func unzipAll(_ path: String) throws -> String {
    let process = Process()
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-p", path]
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c",
            "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nfor n in z.namelist(): sys.stdout.buffer.write(z.read(n))",
            path,
        ]
    }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

// MARK: - The real executable

/// Runs the real `connect-recon` executable, as cron would.
enum Executable {
    /// `connect-recon` next to the test bundle (both are products of the same build).
    static var url: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("connect-recon")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/connect-recon")
    }

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    /// A started process whose standard output and error go to files.
    final class Running: @unchecked Sendable {
        let process: Process
        let outputPath: String
        let errorPath: String

        init(process: Process, outputPath: String, errorPath: String) {
            self.process = process
            self.outputPath = outputPath
            self.errorPath = errorPath
        }

        var pid: Int32 { process.processIdentifier }

        /// Waits for the end (off the cooperative pool) and returns status, output and error.
        func finish() async -> CLIResult {
            let process = self.process
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    process.waitUntilExit()
                    continuation.resume()
                }
            }
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            let status = process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
            return CLIResult(status: status, output: output, error: error)
        }
    }

    /// Starts the tool with `arguments` and `environment` (added to a minimal one), optionally through
    /// `/bin/sh` with `shellPrefix` (such as `umask 027;`) run first. Output goes to files in `logs`.
    static func start(
        _ arguments: [String], environment: [String: String], logs: TemporaryFolder, shellPrefix: String? = nil
    ) throws -> Running {
        let process = Process()
        if let shellPrefix {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(shellPrefix) exec \"$0\" \"$@\"", url.path] + arguments
        } else {
            process.executableURL = url
            process.arguments = arguments
        }
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        let name = UUID().uuidString
        let outputPath = logs.path("stdout-\(name).txt")
        let errorPath = logs.path("stderr-\(name).txt")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        return Running(process: process, outputPath: outputPath, errorPath: errorPath)
    }

    /// Runs the tool to the end.
    static func run(
        _ arguments: [String], environment: [String: String], logs: TemporaryFolder, shellPrefix: String? = nil
    ) async throws -> CLIResult {
        try await start(arguments, environment: environment, logs: logs, shellPrefix: shellPrefix).finish()
    }
}

// MARK: - A small sandbox world

/// A small world (2026-11-01 … 11-06) and the range arguments that cover it; CLI.now and the real clock
/// (2026-11-21 or later) are both well past it.
enum SmallWorld {
    static let from = "2026-11-01"
    static let to = "2026-11-06"
    static var folderName: String { "\(from)_\(to)" }

    static func options(charges: Int = 150) -> SandboxOptions {
        var options = SandboxOptions()
        options.charges = charges
        options.days = 5
        return options
    }

    /// `run`'s arguments for `server`, writing to `<folder>/reports` and `<folder>/<database>`.
    static func arguments(
        _ command: String = "run", server: SandboxServer?, folder: TemporaryFolder, database: String = "history.sqlite",
        out: String = "reports"
    ) throws -> [String] {
        let config = folder.url.appendingPathComponent("config.yaml")
        if !FileManager.default.fileExists(atPath: config.path) { try folder.write("config.yaml", "") }
        var arguments = [
            command, "--config", config.path, "--from", from, "--to", to, "--out", folder.path(out), "--db",
            folder.path(database),
        ]
        if let server { arguments += ["--api-base", server.baseURL.absoluteString] }
        return arguments
    }

    static func reportFolder(_ folder: TemporaryFolder, out: String = "reports") -> String {
        folder.path(out) + "/" + folderName
    }
}

extension SandboxServer {
    /// Runs `body` with a started sandbox and shuts it down afterwards, also when `body` throws.
    static func with<T>(_ options: SandboxOptions, _ body: (SandboxServer) async throws -> T) async throws -> T {
        let server = try await SandboxServer.start(options)
        do {
            let result = try await body(server)
            try await server.shutdown()
            return result
        } catch {
            try? await server.shutdown()
            throw error
        }
    }
}
