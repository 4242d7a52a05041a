import Foundation

/// The databases a test's history can live in (docs/POSTGRESQL.md): a SQLite file always; PostgreSQL when a test server
/// is named in `CONNECT_RECON_TEST_POSTGRES_URL` (`.ci/run` starts one and names it, so CI runs every test on both).
///
/// A test of both runs its SQLite case with the arguments `[.sqlite]`, and its PostgreSQL case as a test of its own
/// with the ``Testing/Trait/postgreSQLServer`` condition: reported as skipped, with the reason, where no server is
/// set; failing in CI (which requires one) when its server is missing.
public enum TestHistoryBackend: String, Sendable, CustomStringConvertible, CaseIterable {
    case sqlite
    case postgreSQL

    /// The throwaway PostgreSQL server's URL (its `postgres` database, with the password).
    public static let serverURL = ProcessInfo.processInfo.environment["CONNECT_RECON_TEST_POSTGRES_URL"]

    /// Whether the tests must have the server (`CONNECT_RECON_TEST_REQUIRE_POSTGRES`, set by `.ci/run`): a test that
    /// needs it then fails without it instead of being skipped (``Testing/Trait/postgreSQLServer``).
    public static let serverRequired = ProcessInfo.processInfo.environment["CONNECT_RECON_TEST_REQUIRE_POSTGRES"] != nil

    public var description: String { rawValue }

    /// A new, empty history: `name` in `folder`, or a new database on the test server (its URL).
    public func newHistory(in folder: TemporaryFolder, name: String = "history.sqlite") throws -> String {
        switch self {
        case .sqlite: return folder.path(name)
        case .postgreSQL: return try Self.newDatabase()
        }
    }

    /// Creates a database with a fresh name on the test server and returns its URL.
    public static func newDatabase() throws -> String {
        guard let server = serverURL, var components = URLComponents(string: server) else {
            throw TestHistoryBackendError(description: "no PostgreSQL test server: set CONNECT_RECON_TEST_POSTGRES_URL")
        }
        let name = "recon_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try psql(server, "CREATE DATABASE \(name)")
        components.path = "/" + name
        guard let url = components.string else {
            throw TestHistoryBackendError(description: "cannot build the URL of database \(name)")
        }
        return url
    }

    /// The rows `sql` selects from the history at `location` (a file's path or a PostgreSQL URL), one a line, columns
    /// separated by `|`: through `psql`, or ``SQLiteShell``.
    public static func query(_ location: String, _ sql: String) throws -> String {
        if location.contains("://") { return try psql(location, sql) }
        guard let rows = try SQLiteShell.run(location, sql, readOnly: true) else {
            throw TestHistoryBackendError(description: "neither sqlite3 nor python3 is installed in /usr/bin")
        }
        return rows
    }

    /// Runs `sql` with `psql` on the database at `url` and returns what it printed (unaligned, tuples only).
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let candidates = ["/usr/lib/postgresql/15/bin/psql", "/usr/bin/psql"]
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestHistoryBackendError(description: "psql is not installed (apt-get install postgresql-client)")
        }
        return try ExternalProgram.output(
            of: URL(fileURLWithPath: tool), ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql]
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The test server cannot give a test its database.
public struct TestHistoryBackendError: Error, CustomStringConvertible {
    public let description: String
}
