import CPostgreSQL
import Foundation
import Synchronization

/// One libpq connection to a PostgreSQL history, used from one thread at a time (as a GRDB connection is); hence
/// `@unchecked Sendable`: the C connection moves between threads, never is shared by two at once.
///
/// libpq reads the URL: its password, else `PGPASSWORD`, else `~/.pgpass`; `sslmode` and the other parameters as
/// given. Every error names the server and database as ``PostgreSQLAddress/description`` shows them, never the
/// password.
final class PostgreSQLConnection: @unchecked Sendable {
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
        // The server's notices ("relation … already exists, skipping") are not for the person running the job.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        self.handle = handle
    }

    deinit { PQfinish(handle) }

    /// Watches the results a task's queries hold in memory (for tests): set with `$resultWatch.withValue`.
    @TaskLocal static var resultWatch: ResultWatch?

    /// The most rows one result held at once, while watched: what a part's memory on PostgreSQL is bounded by.
    /// Queries read row by row hold one.
    final class ResultWatch: Sendable {
        private let largest = Atomic<Int>(0)

        var largestResultRows: Int { largest.load(ordering: .relaxed) }

        fileprivate func held(rows: Int32) {
            var seen = largest.load(ordering: .relaxed)
            while Int(rows) > seen {
                let (exchanged, actual) = largest.compareExchange(
                    expected: seen, desired: Int(rows), ordering: .relaxed)
                if exchanged { return }
                seen = actual
            }
        }
    }

    /// The names of the statements prepared on this connection, by their SQL.
    private var prepared: [String: String] = [:]

    /// Runs one statement with `arguments` bound to its `?` in order (or, without arguments and not `prepared`,
    /// several statements separated by `;`). A `prepared` statement is parsed once per connection and reused.
    func execute(_ sql: String, _ arguments: [SQLValue], prepared: Bool) throws(PostgreSQLError) -> PostgreSQLResult {
        let result: OpaquePointer?
        if arguments.isEmpty, !prepared {
            result = PQexec(handle, sql)
        } else {
            let texts = arguments.map(\.postgreSQLText)
            result = try Self.withCStrings(texts) { (values) throws(PostgreSQLError) -> OpaquePointer? in
                if prepared {
                    let name = try statementName(sql, parameters: Int32(texts.count))
                    return PQexecPrepared(handle, name, Int32(texts.count), values, nil, nil, 0)
                }
                let text = PostgreSQLPlaceholders.numbered(sql)
                return PQexecParams(handle, text, Int32(texts.count), nil, values, nil, nil, 0)
            }
        }
        guard let result else { throw PostgreSQLError(connection: handle, address: address) }
        let wrapped = PostgreSQLResult(result)
        Self.resultWatch?.held(rows: wrapped.count)
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK: return wrapped
        default: throw PostgreSQLError(result: result, address: address)
        }
    }

    /// Runs one query with `arguments` in libpq's single-row mode and calls `body` with each row as it arrives
    /// (`PostgreSQLResult` of one row): a result of millions of rows never sits in memory whole, so a part's memory is
    /// bounded by the part on PostgreSQL as on SQLite. libpq wants every result read, so after an error (the server's
    /// or `body`'s) the rest is read and dropped, then the first error is thrown.
    func forEachRow(_ sql: String, _ arguments: [SQLValue], _ body: (PostgreSQLResult) throws -> Void) throws {
        let texts = arguments.map(\.postgreSQLText)
        let sent = try Self.withCStrings(texts) { (values) throws(PostgreSQLError) -> Int32 in
            let text = PostgreSQLPlaceholders.numbered(sql)
            return PQsendQueryParams(handle, text, Int32(texts.count), nil, values, nil, nil, 0)
        }
        guard sent == 1 else { throw PostgreSQLError(connection: handle, address: address) }
        var failure: (any Error)? =
            PQsetSingleRowMode(handle) == 1 ? nil : PostgreSQLError(connection: handle, address: address)
        while let result = PQgetResult(handle) {
            let wrapped = PostgreSQLResult(result)
            switch PQresultStatus(result) {
            case PGRES_SINGLE_TUPLE:
                Self.resultWatch?.held(rows: wrapped.count)
                guard failure == nil else { continue }
                do { try body(wrapped) } catch { failure = error }
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
                continue
            default:
                if failure == nil { failure = PostgreSQLError(result: result, address: address) }
            }
        }
        if let failure { throw failure }
    }

    /// Runs the prepared statement `sql` once per element of `rows` (its arguments), in libpq's pipeline mode: the
    /// statements go to the server without waiting for each answer, so a page of objects costs about one round
    /// trip instead of one per object. `body` gets each statement's index and result, in order. After a failed
    /// statement the server skips the rest; the first error is thrown once every answer is read.
    func pipelined(
        _ sql: String, _ rows: [[SQLValue]], _ body: (Int, PostgreSQLResult) throws -> Void
    ) throws {
        guard let first = rows.first else { return }
        let name = try statementName(sql, parameters: Int32(first.count))
        guard PQenterPipelineMode(handle) == 1 else { throw PostgreSQLError(connection: handle, address: address) }
        defer { _ = PQexitPipelineMode(handle) }
        // A bounded number in flight: the server's answers must never fill the socket while this side still sends.
        let chunkSize = 256
        var start = 0
        var failure: (any Error)?
        while start < rows.count {
            let chunk = rows[start..<min(start + chunkSize, rows.count)]
            for arguments in chunk {
                let texts = arguments.map(\.postgreSQLText)
                let sent = try Self.withCStrings(texts) { (values) throws(PostgreSQLError) -> Int32 in
                    PQsendQueryPrepared(handle, name, Int32(texts.count), values, nil, nil, 0)
                }
                guard sent == 1 else { throw PostgreSQLError(connection: handle, address: address) }
            }
            guard PQpipelineSync(handle) == 1 else { throw PostgreSQLError(connection: handle, address: address) }
            var index = start
            while true {
                guard let result = PQgetResult(handle) else { continue }
                let wrapped = PostgreSQLResult(result)
                let status = PQresultStatus(result)
                if status == PGRES_PIPELINE_SYNC { break }
                switch status {
                case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
                    if failure == nil {
                        do { try body(index, wrapped) } catch { failure = error }
                    }
                    index += 1
                case PGRES_PIPELINE_ABORTED:
                    index += 1
                default:
                    if failure == nil { failure = PostgreSQLError(result: result, address: address) }
                    index += 1
                }
            }
            if let failure { throw failure }
            start += chunk.count
        }
    }

    /// The name of `sql` prepared on this connection, preparing it the first time.
    private func statementName(_ sql: String, parameters: Int32) throws(PostgreSQLError) -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count + 1)"
        guard let result = PQprepare(handle, name, PostgreSQLPlaceholders.numbered(sql), parameters, nil) else {
            throw PostgreSQLError(connection: handle, address: address)
        }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw PostgreSQLError(result: result, address: address)
        }
        prepared[sql] = name
        return name
    }

    /// Calls `body` with `texts` as C strings (NULL for `nil`), valid during the call.
    private static func withCStrings<T>(
        _ texts: [String?], _ body: ([UnsafePointer<CChar>?]) throws(PostgreSQLError) -> T
    ) throws(PostgreSQLError) -> T {
        let pointers: [UnsafeMutablePointer<CChar>?] = texts.map { $0.map { strdup($0) } ?? nil }
        defer { for pointer in pointers { free(pointer) } }
        return try body(pointers.map { $0.map { UnsafePointer($0) } })
    }

    /// Whether the connection is still usable (not broken by a server restart or the network).
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether the connection is inside a transaction block (or a failed one).
    var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Runs `sql` (one statement, no parameters) and returns its rows, each column as text (`nil` for NULL).
    func rows(_ sql: String) throws(HistoryError) -> [[String?]] {
        let result: PostgreSQLResult
        do {
            result = try execute(sql, [], prepared: false)
        } catch {
            throw .storage(path: address.description, reason: error.message)
        }
        return (0..<result.count).map { row in
            (0..<PQnfields(result.handle)).map { column in
                PQgetisnull(result.handle, row, column) == 1
                    ? nil : String(cString: PQgetvalue(result.handle, row, column))
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
