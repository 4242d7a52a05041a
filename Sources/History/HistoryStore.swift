import Foundation
import GRDB
import ReconCore

/// The history: every object ever extracted (facts + raw JSON), every run, and extraction checkpoints, in a SQLite
/// file or a PostgreSQL database (docs/POSTGRESQL.md). Everything above the store reads and writes the history through
/// its nouns (``runs``, ``objects``, ``gaps``, ``parts``; ``copy(into:)`` moves all of it), and does not know which
/// of the two databases it has: the queries are written once (``SQLSession``, ``SQLDialect``) and run on either
/// ``HistoryDatabase``.
///
/// Every write method is one transaction, so a crash leaves the history exactly as of the last commit. Readers
/// never block the writer. Writers must hold the ``HistoryLock`` of the same location; readers (`history`) need not.
public final class HistoryStore: HistoryNoun {
    /// Where the history lives.
    public let location: HistoryLocation
    /// The runs, their findings and the history's mode.
    public let runs: HistoryRuns
    /// The objects extracted.
    public let objects: HistoryObjects
    /// What a range lacks, and the late outcomes.
    public let gaps: HistoryGaps
    /// A range's facts for the reconciler, in parts.
    public let parts: HistoryParts
    /// Stripe's balance as the runs read it, and what carries it to a range (docs/RULES.md, "The books close").
    public let balance: HistoryBalance
    let access: HistoryAccess

    private init(database: any HistoryDatabase) {
        location = database.location
        access = HistoryAccess(database: database)
        runs = HistoryRuns(access: access)
        objects = HistoryObjects(access: access)
        gaps = HistoryGaps(access: access)
        parts = HistoryParts(access: access)
        balance = HistoryBalance(access: access)
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
}
