import Foundation
import TestSupport

/// Runs SQL on an SQLite history file from outside the store, with the `sqlite3` command-line tool, as an operator
/// would: the benchmark sets the state of a look-back window this way (the bench depends on `History`, whose API
/// has no statement to make an object pending, and on no SQLite binding of its own).
enum SQLiteCommand {
    static let tool = URL(fileURLWithPath: "/usr/bin/sqlite3")

    /// Runs `sql` (one or more statements) on `database` and returns what it printed (one line a row, columns
    /// separated by `|`), trimmed; throws with the tool's message when it fails.
    @discardableResult
    static func run(_ database: String, _ sql: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            throw BenchError("the look-back scenarios need the sqlite3 tool (apt-get install sqlite3)")
        }
        let result = try ExternalProgram.run(tool, ["-batch", "-bail", database, sql])
        guard result.status == 0 else {
            throw BenchError(
                "sqlite3 on \(database) failed (\(result.status)): "
                    + result.error.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The rows `sql` printed, each split into its columns.
    static func rows(_ database: String, _ sql: String) throws -> [[String]] {
        try run(database, sql).split(separator: "\n").map {
            $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// Copies the SQLite history at `source` (closed: no store has it open) to `destination`, replacing it: its
    /// write-ahead log is checkpointed into the file first, so the file alone is the whole history.
    static func copyDatabase(_ source: String, to destination: String) throws {
        try run(source, "PRAGMA wal_checkpoint(TRUNCATE);")
        for suffix in ["", "-wal", "-shm", ".lock"] {
            try? FileManager.default.removeItem(atPath: destination + suffix)
        }
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }
}
