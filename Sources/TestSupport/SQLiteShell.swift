import Foundation

/// Runs SQL on an SQLite file from outside the process, as an operator would: the sqlite3 shell, else Python's
/// sqlite3 module (both print a row's columns separated by `|`, NULL as nothing), from /usr/bin.
public enum SQLiteShell {
    private static let tool: (url: URL, isShell: Bool)? = {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
            return (URL(fileURLWithPath: "/usr/bin/sqlite3"), true)
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") {
            return (URL(fileURLWithPath: "/usr/bin/python3"), false)
        }
        return nil
    }()

    /// Whether a tool is installed (CI installs `sqlite3`).
    public static var isAvailable: Bool { tool != nil }

    /// Runs one SQL statement on `database` and returns what it printed, trimmed (`nil` when no tool is
    /// installed); throws with the tool's message when it fails.
    public static func run(_ database: String, _ statement: String, readOnly: Bool = false) throws -> String? {
        guard let tool else { return nil }
        let arguments =
            tool.isShell
            ? (readOnly ? ["-readonly"] : []) + [database, statement]
            : [
                "-c",
                "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
                    + "for row in c.execute(sys.argv[2]): print(*['' if v is None else v for v in row], sep='|')\n"
                    + "c.commit()",
                database, statement,
            ]
        return try ExternalProgram.output(of: tool.url, arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
