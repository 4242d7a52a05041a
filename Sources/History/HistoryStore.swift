import Foundation
import GRDB
import ReconCore

/// The SQLite history: every object ever extracted (facts + raw JSON), every run, and extraction checkpoints.
///
/// WAL mode (a `DatabasePool`): readers never block the writer. Every write method is one transaction, so a
/// crash leaves the history exactly as of the last commit. The file is created readable by its owner only.
/// Writers must hold the ``HistoryLock`` of the same path; readers (`history`) need not.
public final class HistoryStore: Sendable {
    public let path: String
    private let pool: DatabasePool

    private init(path: String, pool: DatabasePool) {
        self.path = path
        self.pool = pool
    }

    /// Opens (creating with mode 0600 if needed) and migrates the database at `path`.
    public static func open(path: String) throws(HistoryError) -> HistoryStore {
        try createPrivately(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "connect-recon.history"
        // The reconcile's scope tables hold a range's ids (a million and more): keep them in memory, not in
        // temporary files.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            let migrator = HistoryMigrations.migrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) { throw HistoryError.newerSchema(path: path) }
            try migrator.migrate(pool)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw map(error, path: path)
        }
        return HistoryStore(path: path, pool: pool)
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

    /// Runs `body` in a write transaction on GRDB's writer queue, without blocking the calling thread.
    func writeDatabase<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(HistoryError) -> T {
        do {
            return try await pool.write(body)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw Self.map(error, path: path)
        }
    }

    /// Runs `body` in a read transaction.
    func readDatabase<T>(_ body: @Sendable (Database) throws -> T) throws(HistoryError) -> T { try read(body) }

    /// Runs `body` in a read transaction on GRDB's reader queue, without blocking the calling thread (for reads made
    /// while an extraction runs on Swift concurrency's few threads).
    func readDatabase<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(HistoryError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw Self.map(error, path: path)
        }
    }

    /// Runs `body` in a write transaction on the calling thread.
    func write<T>(_ body: @Sendable (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try pool.write(body)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw Self.map(error, path: path)
        }
    }

    /// Runs `body` in one read transaction (a snapshot of the history), on the calling thread; `body`'s own
    /// errors come out as they are.
    func readSnapshot<T>(_ body: (Database) throws -> T) throws -> T { try pool.read(body) }

    /// Runs `body` in a read transaction, its errors mapped to ``HistoryError``.
    func read<T>(_ body: @Sendable (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw Self.map(error, path: path)
        }
    }

    // MARK: - Mode

    /// Records `mode` on first use; refuses a database of the other mode.
    public func claimMode(_ mode: StripeMode) throws(HistoryError) {
        let path = self.path
        try write { db in
            if let stored = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'mode'") {
                guard stored == mode.rawValue else {
                    throw HistoryError.modeMismatch(path: path, stored: stored, requested: mode.rawValue)
                }
            } else {
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('mode', ?)", arguments: [mode.rawValue])
            }
        }
    }

    /// The mode recorded by the first run; `nil` for a history no run has claimed yet. A value that is no mode
    /// means the file was changed by something else than connect-recon.
    public func storedMode() throws(HistoryError) -> StripeMode? {
        let path = self.path
        let stored = try read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'mode'") }
        guard let stored else { return nil }
        guard let mode = StripeMode(rawValue: stored) else { throw .corrupt(path: path) }
        return mode
    }
}
