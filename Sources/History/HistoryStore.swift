import Foundation
import GRDB
import ReconCore

/// The history: every object ever extracted (facts + raw JSON), every run, and extraction checkpoints, in a SQLite
/// file or a PostgreSQL database (SPEC §7). Everything above the store reads and writes the history through it,
/// and does not know which of the two it has: the store's queries are written once (``SQLSession``,
/// ``SQLDialect``) and run on either ``HistoryDatabase``.
///
/// Every write method is one transaction, so a crash leaves the history exactly as of the last commit. Readers
/// never block the writer. Writers must hold the ``HistoryLock`` of the same location; readers (`history`) need not.
public final class HistoryStore: Sendable {
    /// Where the history lives.
    public let location: HistoryLocation
    let database: any HistoryDatabase

    private init(database: any HistoryDatabase) {
        self.location = database.location
        self.database = database
    }

    /// Where the history lives, as messages show it (a file's path; a URL without its password).
    public var path: String { location.description }

    /// Opens the history at `location`, creating and migrating it as needed: a SQLite file is created with mode
    /// 0600; a PostgreSQL database must exist (its tables are created).
    public static func open(_ location: HistoryLocation) throws(HistoryError) -> HistoryStore {
        switch location {
        case .sqliteFile(let path): HistoryStore(database: try SQLiteHistoryDatabase(path: path))
        case .postgreSQL(let address): HistoryStore(database: try PostgreSQLHistoryDatabase(address: address))
        }
    }

    /// Whether a history exists at `location` (a file; a database holding the history's tables), without creating
    /// one: for the commands that only read it.
    public static func exists(_ location: HistoryLocation) throws(HistoryError) -> Bool {
        switch location {
        case .sqliteFile(let path): SQLiteHistoryDatabase.exists(path: path)
        case .postgreSQL(let address): try PostgreSQLHistoryDatabase.exists(address: address)
        }
    }

    /// Opens (creating with mode 0600 if needed) and migrates the SQLite history at `path`.
    public static func open(path: String) throws(HistoryError) -> HistoryStore { try open(.sqliteFile(path: path)) }

    /// Runs `body` in a write transaction without blocking the calling thread.
    @discardableResult
    func writeDatabase<T: Sendable>(
        _ body: @escaping @Sendable (SQLSession) throws -> T
    ) async throws(HistoryError) -> T {
        do {
            return try await database.write(body)
        } catch {
            throw database.historyError(error)
        }
    }

    /// Runs `body` in a read transaction without blocking the calling thread (for reads made while an extraction
    /// runs on Swift concurrency's few threads).
    func readDatabase<T: Sendable>(
        _ body: @escaping @Sendable (SQLSession) throws -> T
    ) async throws(HistoryError) -> T {
        do {
            return try await database.read(body)
        } catch {
            throw database.historyError(error)
        }
    }

    /// Runs `body` in a write transaction on the calling thread.
    @discardableResult
    func write<T>(_ body: (SQLSession) throws -> T) throws(HistoryError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw database.historyError(error)
        }
    }

    /// Runs `body` in one read transaction (a snapshot of the history), on the calling thread; `body`'s own
    /// errors come out as they are, the database's as ``HistoryError``.
    func readSnapshot<T>(_ body: (SQLSession) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch let error where database.isStorageError(error) {
            throw database.historyError(error)
        }
    }

    /// Runs `body` in a read transaction, its errors mapped to ``HistoryError``.
    func read<T>(_ body: (SQLSession) throws -> T) throws(HistoryError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw database.historyError(error)
        }
    }

    // MARK: - Mode

    /// Records `mode` on first use; refuses a database of the other mode.
    public func claimMode(_ mode: StripeMode) throws(HistoryError) {
        let path = self.path
        try write { db in
            if let stored = try db.value(String.self, "SELECT value FROM meta WHERE key = 'mode'") {
                guard stored == mode.rawValue else {
                    throw HistoryError.modeMismatch(path: path, stored: stored, requested: mode.rawValue)
                }
            } else {
                try db.execute("INSERT INTO meta (key, value) VALUES ('mode', ?)", [.text(mode.rawValue)])
            }
        }
    }

    /// The mode recorded by the first run; `nil` for a history no run has claimed yet. A value that is no mode
    /// means the file was changed by something else than connect-recon.
    public func storedMode() throws(HistoryError) -> StripeMode? {
        let path = self.path
        let stored = try read { db in try db.value(String.self, "SELECT value FROM meta WHERE key = 'mode'") }
        guard let stored else { return nil }
        guard let mode = StripeMode(rawValue: stored) else { throw .corrupt(path: path) }
        return mode
    }
}
