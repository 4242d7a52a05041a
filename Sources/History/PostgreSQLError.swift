import CPostgreSQL
import Foundation

/// A statement or the connection failed on a PostgreSQL history: the server's SQLSTATE and message, with the URL
/// and its password taken out.
struct PostgreSQLError: Error, CustomStringConvertible {
    /// The five-character SQLSTATE (`08006`, `53100`, …); empty when libpq failed before the server answered.
    let sqlState: String
    let message: String

    init(sqlState: String, message: String) {
        self.sqlState = sqlState
        self.message = message
    }

    /// The error of a failed result.
    init(result: OpaquePointer, address: PostgreSQLAddress) {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let text = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
        self.init(sqlState: state, message: URLText.scrubbed(text, of: address.url))
    }

    /// The error of a connection that could not run a statement at all (gone, out of memory).
    init(connection: OpaquePointer, address: PostgreSQLAddress) {
        let text = String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
        self.init(
            sqlState: "08000", message: URLText.scrubbed(text.isEmpty ? "the connection failed" : text, of: address.url)
        )
    }

    var description: String { message }

    /// The connection to the server broke (class 08) or the server is shutting down (57P).
    var isConnectionLost: Bool { sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") }
}
