import Foundation
import Synchronization
import WorkerThreads

/// The history in a PostgreSQL database (docs/POSTGRESQL.md): the same tables as SQLite's, built by
/// ``PostgreSQLMigrations``.
///
/// One connection writes, one transaction at a time (as SQLite has one writer); reads take a connection of their
/// own from a small pool, in a repeatable-read transaction (a snapshot, as a SQLite read transaction is), so a
/// `history` or a BI tool reading never waits for the nightly job. A connection the server dropped is replaced at
/// its next use; the transaction it was in failed and rolled back.
///
/// Its libpq connections are C objects, each used by one thread at a time: the writer inside `writer`'s lock, an
/// idle reader only while it is out of the pool. Awaited reads and writes run on a thread of their own
/// (``OwnThread``), so no caller blocks one of Swift concurrency's few threads on the network.
final class PostgreSQLHistoryDatabase: HistoryDatabase {
    let address: PostgreSQLAddress
    /// The writing connection, held for a whole transaction: one writer at a time, as SQLite has.
    private let writer: Mutex<PostgreSQLConnection>
    /// Idle reading connections.
    private let idleReaders = Mutex<[PostgreSQLConnection]>([])

    var location: HistoryLocation { .postgreSQL(address) }

    /// Connects and migrates the database at `address`; throws when the server refuses, or the database was
    /// migrated by a newer connect-recon.
    init(address: PostgreSQLAddress) throws(HistoryError) {
        self.address = address
        let connection = try PostgreSQLConnection(address)
        do {
            try Self.transaction(connection, readOnly: false) { session in
                try PostgreSQLMigrator.migrate(session, address: address)
            }
        } catch {
            throw Self.map(error, address: address)
        }
        writer = Mutex(connection)
    }

    func write<T>(_ body: (SQLSession) throws -> T) throws -> T {
        let address = address
        // The result leaves the lock through a local: it is the caller's, never the lock's.
        var outcome: Result<T, any Error>?
        writer.withLock { connection in
            outcome = Result {
                if !connection.isHealthy { connection = try PostgreSQLConnection(address) }
                return try Self.transaction(connection, readOnly: false, body)
            }
        }
        guard let outcome else { preconditionFailure("the locked write ran") }
        return try outcome.get()
    }

    func settleBulkLoad() throws {
        let address = address
        var outcome: Result<Void, any Error>?
        writer.withLock { connection in
            outcome = Result {
                if !connection.isHealthy { connection = try PostgreSQLConnection(address) }
                _ = try connection.execute("VACUUM (ANALYZE)", [], prepared: false)
            }
        }
        try outcome?.get()
    }

    func read<T>(_ body: (SQLSession) throws -> T) throws -> T {
        let connection = try takeReader()
        let value = try Self.transaction(connection, readOnly: true, body)
        giveBack(connection)
        return value
    }

    /// The first transaction exports its snapshot (`pg_export_snapshot()`); the second, on a connection of its own,
    /// imports it (`SET TRANSACTION SNAPSHOT`) before the first goes on: PostgreSQL's own way for two sessions to see
    /// one state.
    func readAlongside(
        _ first: (SQLSession) throws -> Void, _ second: @escaping @Sendable (SQLSession) throws -> Void,
        release: () -> Void
    ) throws -> Bool {
        let exporter = try takeReader()
        let alongside = try Self.transaction(exporter, readOnly: true) { session in
            guard let snapshot = try exporter.rows("SELECT pg_export_snapshot()").first?.first ?? nil else {
                throw HistoryError.storage(path: address.description, reason: "the server exported no snapshot")
            }
            return try ReadAlongside.run(
                second: { [self] begun in
                    let importer = try takeReader()
                    try Self.transaction(importer, readOnly: true) { imported in
                        // The transaction's first statement, as PostgreSQL requires.
                        _ = try importer.execute("SET TRANSACTION SNAPSHOT '\(snapshot)'", [], prepared: false)
                        begun()
                        try second(imported)
                    }
                    giveBack(importer)
                },
                first: { try first(session) }, cannotBegin: {}, release: release)
        }
        giveBack(exporter)
        return alongside
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (SQLSession) throws -> T) async throws -> T {
        try await OwnThread.run(name: "connect-recon.history.postgresql.write") { try self.write(body) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (SQLSession) throws -> T) async throws -> T {
        try await OwnThread.run(name: "connect-recon.history.postgresql.read") { try self.read(body) }
    }

    func historyError(_ error: any Error) -> HistoryError { Self.map(error, address: address) }

    func isStorageError(_ error: any Error) -> Bool { error is PostgreSQLError || error is FactsColumnError }

    func upsert<Facts: StorableFacts>(
        _ objects: [StoredObject<Facts>], db: SQLSession, run runID: Int64
    ) throws -> WriteOutcome {
        try PostgreSQLUpsert.upsert(objects, db: db, run: runID)
    }

    /// Whether the database at `address` holds a history (its migrations table), without creating one.
    static func exists(address: PostgreSQLAddress) throws(HistoryError) -> Bool {
        let rows = try PostgreSQLConnection(address).rows("SELECT to_regclass('grdb_migrations') IS NOT NULL")
        return rows.first?.first == "t"
    }

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
        let idle = idleReaders.withLock { $0.popLast() }
        if let idle, idle.isHealthy { return idle }
        return try PostgreSQLConnection(address)
    }

    private func giveBack(_ connection: PostgreSQLConnection) {
        guard connection.isHealthy, !connection.isInTransaction else { return }
        idleReaders.withLock { idle in
            if idle.count < 4 { idle.append(connection) }
        }
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
}
