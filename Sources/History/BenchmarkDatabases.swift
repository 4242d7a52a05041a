import Foundation

/// For the benchmark (`connect-recon-bench --db URL`): fresh PostgreSQL databases on the server a URL names.
package enum BenchmarkDatabases {
    /// Drops database `name` (when it exists) on the server of `server` and creates it again, empty; returns its
    /// location (same user, password and parameters). The URL's user must be allowed to create databases.
    package static func recreate(_ name: String, server: PostgreSQLAddress) throws -> HistoryLocation {
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
            var components = URLComponents(
                string: server.url)
        else { throw HistoryError.storage(path: server.description, reason: "cannot name database '\(name)'") }
        let connection = try PostgreSQLConnection(server)
        _ = try connection.rows("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        _ = try connection.rows("CREATE DATABASE \(name)")
        components.path = "/" + name
        guard let url = components.string else {
            throw HistoryError.storage(path: server.description, reason: "cannot build the URL of '\(name)'")
        }
        return try HistoryLocation(url)
    }
}
