import Dispatch
import Foundation

/// The history in a PostgreSQL database (SPEC §7): the same tables as SQLite's, built by ``PostgreSQLMigrations``.
///
/// One connection writes, one transaction at a time (as SQLite has one writer); reads take a connection of their
/// own from a small pool, in a repeatable-read transaction (a snapshot, as a SQLite read transaction is), so a
/// `history` or a BI tool reading never waits for the nightly job. A connection the server dropped is replaced at
/// its next use; the transaction it was in failed and rolled back.
///
/// `@unchecked Sendable`: its libpq connections are C objects, each used by one thread at a time, the writer under
/// `writing`, the idle readers under `lock`.
final class PostgreSQLHistoryDatabase: HistoryDatabase, @unchecked Sendable {
    let address: PostgreSQLAddress
    private let lock = NSLock()
    /// The writing connection: used under `writing`.
    private var writer: PostgreSQLConnection
    private let writing = NSLock()
    /// Where awaited writes run, one after the other and in the order they were asked for (GRDB's writer queue
    /// does the same for SQLite); awaited reads run on the global queue.
    private let writerQueue = DispatchQueue(label: "connect-recon.history.postgresql.writer")
    /// Idle reading connections (under `lock`).
    private var idleReaders: [PostgreSQLConnection] = []

    var location: HistoryLocation { .postgreSQL(address) }

    /// Connects and migrates the database at `address`; throws when the server refuses, or the database was
    /// migrated by a newer connect-recon.
    init(address: PostgreSQLAddress) throws(HistoryError) {
        self.address = address
        writer = try PostgreSQLConnection(address)
        do {
            try Self.transaction(writer, readOnly: false) { session in
                try PostgreSQLMigrator.migrate(session, address: address)
            }
        } catch {
            throw Self.map(error, address: address)
        }
    }

    func write<T>(_ body: (SQLSession) throws -> T) throws -> T {
        writing.lock()
        defer { writing.unlock() }
        if !writer.isHealthy { writer = try PostgreSQLConnection(address) }
        return try Self.transaction(writer, readOnly: false, body)
    }

    func read<T>(_ body: (SQLSession) throws -> T) throws -> T {
        let connection = try takeReader()
        let value = try Self.transaction(connection, readOnly: true, body)
        giveBack(connection)
        return value
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (SQLSession) throws -> T) async throws -> T {
        try await Self.offThread(on: writerQueue) { try self.write(body) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (SQLSession) throws -> T) async throws -> T {
        try await Self.offThread(on: .global()) { try self.read(body) }
    }

    func historyError(_ error: any Error) -> HistoryError { Self.map(error, address: address) }

    static func map(_ error: any Error, address: PostgreSQLAddress) -> HistoryError {
        if let error = error as? HistoryError { return error }
        guard let error = error as? PostgreSQLError else {
            return .storage(path: address.description, reason: String(describing: error))
        }
        if error.isConnectionLost {
            return .serverUnavailable(location: address.description, reason: error.message, isConfiguration: false)
        }
        switch error.sqlState {
        case "53100": return .storage(path: address.description, reason: "the server's disk is full")
        case "42501":
            return .cannotOpen(path: address.description, reason: error.message)
        default: return .storage(path: address.description, reason: error.message)
        }
    }

    // MARK: Connections

    private func takeReader() throws(HistoryError) -> PostgreSQLConnection {
        lock.lock()
        let idle = idleReaders.popLast()
        lock.unlock()
        if let idle, idle.isHealthy { return idle }
        return try PostgreSQLConnection(address)
    }

    private func giveBack(_ connection: PostgreSQLConnection) {
        guard connection.isHealthy, !connection.isInTransaction else { return }
        lock.lock()
        if idleReaders.count < 4 { idleReaders.append(connection) }
        lock.unlock()
    }

    /// Runs `body` in a transaction on `connection`: committed when it returns, rolled back when it throws.
    static func transaction<T>(
        _ connection: PostgreSQLConnection, readOnly: Bool, _ body: (SQLSession) throws -> T
    ) throws -> T {
        _ = try connection.execute(
            readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN", [], prepared: false)
        do {
            let value = try body(SQLSession(postgreSQL: connection))
            _ = try connection.execute("COMMIT", [], prepared: false)
            return value
        } catch {
            _ = try? connection.execute("ROLLBACK", [], prepared: false)
            throw error
        }
    }

    /// Runs the blocking `body` on `queue`, suspending the calling task until it is done.
    private static func offThread<T: Sendable>(
        on queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
