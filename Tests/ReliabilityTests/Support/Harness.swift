import ConnectReconTestSupport
import Foundation
import ReconCLI
import Sandbox
import TestSupport
import Testing

// MARK: - Files

/// Every regular file below `folder` (hidden ones included), by relative path, with its bytes.
func snapshot(_ folder: String) -> [String: Data] {
    var files: [String: Data] = [:]
    for relative in FileManager.default.subpaths(atPath: folder) ?? [] {
        let path = folder + "/" + relative
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
            continue
        }
        files[relative] = FileManager.default.contents(atPath: path)
    }
    return files
}

/// The CSV files of a report folder, by name.
func csvFiles(_ folder: String) -> [String: Data] {
    snapshot(folder).filter { $0.key.hasSuffix(".csv") && !$0.key.contains("/") }
}

/// The names of the CSV files every report folder holds.
let csvNames = [
    "platform_fees.csv", "transfer_groups.csv", "skipped_transfers.csv", "unreversed_disputes.csv", "exceptions.csv",
    "ledger.csv",
    "summary.csv", "connected_accounts.csv", "stripe_costs.csv", "payouts.csv", "payout_transactions.csv",
    "balance.csv",
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

/// `PRAGMA integrity_check` of an SQLite file (`nil` when no SQLite shell is installed).
func integrityCheck(_ database: String) throws -> String? {
    try SQLiteShell.run(database, "PRAGMA integrity_check;", readOnly: true)
}

/// Every entry of a zip file, concatenated as text (through `unzip`, else Python's zipfile).
func unzipAll(_ path: String) throws -> String {
    let result =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip")
        ? try ExternalProgram.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-p", path])
        : try ExternalProgram.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                "-c",
                "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\n"
                    + "for n in z.namelist(): sys.stdout.buffer.write(z.read(n))",
                path,
            ])
    return result.output
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

    /// `run`'s arguments for `server`, writing to `<folder>/reports` and `<folder>/<database>` (or the database
    /// `database` names: a path, or a PostgreSQL URL).
    static func arguments(
        _ command: String = "run", server: SandboxServer?, folder: TemporaryFolder, database: String = "history.sqlite",
        out: String = "reports"
    ) throws -> [String] {
        let config = folder.url.appendingPathComponent("config.yaml")
        if !FileManager.default.fileExists(atPath: config.path) { try folder.write("config.yaml", "") }
        var arguments = [
            command, "--config", config.path, "--from", from, "--to", to, "--out", folder.path(out), "--db",
            database.contains("://") || database.hasPrefix("/") ? database : folder.path(database),
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
