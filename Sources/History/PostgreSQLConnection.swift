import CPostgreSQL
import Foundation

/// One libpq connection to a PostgreSQL history, used from one thread at a time (as a GRDB connection is).
///
/// libpq reads the URL: its password, else `PGPASSWORD`, else `~/.pgpass`; `sslmode` and the other parameters as
/// given. Every error names the server and database as ``PostgreSQLAddress/description`` shows them, never the
/// password.
final class PostgreSQLConnection {
    private let handle: OpaquePointer
    let address: PostgreSQLAddress

    /// Connects; throws ``HistoryError/serverUnavailable(location:reason:isConfiguration:)`` when the server refuses,
    /// the password is wrong or the database does not exist.
    init(_ address: PostgreSQLAddress) throws(HistoryError) {
        self.address = address
        guard let handle = PQconnectdb(address.url) else {
            throw .serverUnavailable(
                location: address.description, reason: "libpq could not allocate a connection", isConfiguration: false)
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let reason = Self.errorText(handle, address)
            PQfinish(handle)
            throw .serverUnavailable(
                location: address.description, reason: reason, isConfiguration: Self.isConfiguration(reason))
        }
        self.handle = handle
    }

    deinit { PQfinish(handle) }

    /// Runs `sql` (one statement, no parameters) and returns its rows, each column as text (`nil` for NULL).
    func rows(_ sql: String) throws(HistoryError) -> [[String?]] {
        guard let result = PQexec(handle, sql) else {
            throw .storage(path: address.description, reason: Self.errorText(handle, address))
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
            break
        default:
            let reason = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
            throw .storage(path: address.description, reason: URLText.scrubbed(reason, of: address.url))
        }
        return (0..<PQntuples(result)).map { row in
            (0..<PQnfields(result)).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
    }

    /// libpq's message for the connection, without the URL's password.
    private static func errorText(_ handle: OpaquePointer, _ address: PostgreSQLAddress) -> String {
        let text = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
        return URLText.scrubbed(text.isEmpty ? "libpq gave no reason" : text, of: address.url)
    }

    /// Whether libpq's reason is the configuration's fault (the password, the user or the database named) rather
    /// than the server's or the network's.
    private static func isConfiguration(_ reason: String) -> Bool {
        ["password authentication failed", "does not exist", "no password supplied"].contains {
            reason.contains($0)
        }
    }
}
