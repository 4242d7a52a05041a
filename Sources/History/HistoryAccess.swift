import ReconCore

/// The database of one history, and the transactions its nouns (``HistoryRuns``, ``HistoryObjects``,
/// ``HistoryGaps``, ``HistoryParts``) run their queries in, each database's errors mapped to ``HistoryError``.
final class HistoryAccess: Sendable {
    let database: any HistoryDatabase

    init(database: any HistoryDatabase) { self.database = database }

    /// Where the history lives, as messages show it (a file's path; a URL without its password).
    var path: String { database.location.description }
}

/// One noun of the history: what its queries share.
protocol HistoryNoun: Sendable {
    var access: HistoryAccess { get }
}

extension HistoryNoun {
    var database: any HistoryDatabase { access.database }

    /// Where the history lives, as messages show it.
    var path: String { access.path }

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

    /// ``HistoryDatabase/readAlongside(_:_:release:)``: its database's errors as ``HistoryError``, the bodies' own as
    /// they are.
    func readAlongside(
        _ first: (SQLSession) throws -> Void, _ second: @escaping @Sendable (SQLSession) throws -> Void,
        release: () -> Void
    ) throws -> Bool {
        do {
            return try database.readAlongside(first, second, release: release)
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
}

/// The runs: each run's record, its checkpoints and findings, the mode the history is in, and the reports' daily
/// figures.
public struct HistoryRuns: HistoryNoun {
    let access: HistoryAccess
}

/// The objects: every object ever extracted, its facts and Stripe's JSON, and their changes.
public struct HistoryObjects: HistoryNoun {
    let access: HistoryAccess
    /// The extraction's page writes, committed together when they queue.
    let pageWrites: GroupCommit

    init(access: HistoryAccess) {
        self.access = access
        pageWrites = GroupCommit(access)
    }
}

/// What a range still lacks (docs/EXTRACTION.md), and the late outcomes of the look-back window: what the extraction
/// asks the history before it decides what to fetch.
public struct HistoryGaps: HistoryNoun {
    let access: HistoryAccess
}

/// A range's facts for the reconciler, in parts.
public struct HistoryParts: HistoryNoun {
    let access: HistoryAccess
}
