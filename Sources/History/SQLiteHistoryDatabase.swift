import CSQLiteMemoryStatus
import Foundation
import GRDB

/// The history in one SQLite file (docs/POSTGRESQL.md's default): WAL mode, a `DatabasePool`, so readers never block
/// the writer; created readable by its owner only; migrated by ``HistoryMigrations``.
final class SQLiteHistoryDatabase: HistoryDatabase {
    let path: String
    private let pool: DatabasePool

    var location: HistoryLocation { .sqliteFile(path: path) }

    /// Whether SQLite's memory statistics are off in this process: turned off once, before the first connection opens
    /// (SQLite accepts it only before it initialises). With them on, every allocation inside SQLite takes one
    /// process-wide mutex to count bytes the history never reads: about a twentieth of a week's extraction CPU.
    static let memoryStatisticsOff = sqlite_memory_status_disable() == 0

    /// Opens (creating with mode 0600 if needed) and migrates the database at `path`.
    init(path: String) throws(HistoryError) {
        self.path = path
        _ = Self.memoryStatisticsOff
        try Self.createPrivately(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "connect-recon.history"
        // The reconcile's scope tables hold a range's ids (a million and more): keep them in memory, not in
        // temporary files.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            let migrator = HistoryMigrations.migrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) { throw HistoryError.newerSchema(path: path) }
            try migrator.migrate(pool)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw Self.map(error, path: path)
        }
    }

    /// Creates an empty file with mode 0600 so SQLite's WAL and shared-memory files inherit owner-only access.
    private static func createPrivately(_ path: String) throws(HistoryError) {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return }
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
    }

    func write<T>(_ body: (SQLSession) throws -> T) throws -> T {
        try pool.write { db in try body(SQLSession(sqlite: db)) }
    }

    func settleBulkLoad() throws {}

    func read<T>(_ body: (SQLSession) throws -> T) throws -> T {
        try pool.read { db in try body(SQLSession(sqlite: db)) }
    }

    func readAlongside(
        _ first: (SQLSession) throws -> Void, _ second: @escaping @Sendable (SQLSession) throws -> Void,
        release: () -> Void
    ) throws -> Bool {
        guard let barrier = SQLiteCommitBarrier(path: path) else { return false }
        let pool = pool
        return try ReadAlongside.run(
            second: { begun in
                try pool.read { db in
                    try Self.beginSnapshot(db)
                    begun()
                    try second(SQLSession(sqlite: db))
                }
            },
            first: {
                defer { barrier.lift() }
                try pool.read { db in
                    try Self.beginSnapshot(db)
                    barrier.lift()
                    try first(SQLSession(sqlite: db))
                }
            },
            cannotBegin: barrier.lift, release: release)
    }

    /// Makes the read transaction `db` is in take its snapshot now (a WAL read transaction begins at its first read).
    private static func beginSnapshot(_ db: Database) throws {
        _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (SQLSession) throws -> T) async throws -> T {
        try await pool.write { db in try body(SQLSession(sqlite: db)) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (SQLSession) throws -> T) async throws -> T {
        try await pool.read { db in try body(SQLSession(sqlite: db)) }
    }

    func historyError(_ error: any Error) -> HistoryError {
        if let error = error as? HistoryError { return error }
        return Self.map(error, path: path)
    }

    func isStorageError(_ error: any Error) -> Bool { error is DatabaseError || error is FactsColumnError }

    func upsert<Facts: StorableFacts>(
        _ objects: [StoredObject<Facts>], db: SQLSession, run runID: Int64
    ) throws -> WriteOutcome {
        try SQLiteUpsert.upsert(objects, db: db, run: runID)
    }

    /// Whether a history file exists at `path`, without creating one.
    static func exists(path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    static func map(_ error: any Error, path: String) -> HistoryError {
        guard let databaseError = error as? DatabaseError else {
            return .storage(path: path, reason: String(describing: error))
        }
        switch databaseError.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .corrupt(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
            return .cannotOpen(path: path, reason: databaseError.message ?? "\(databaseError.resultCode)")
        case .SQLITE_FULL: return .storage(path: path, reason: "the disk is full")
        default: return .storage(path: path, reason: databaseError.message ?? "\(databaseError.resultCode)")
        }
    }
}
