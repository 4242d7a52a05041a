/// The database a ``HistoryStore`` keeps its history in: a SQLite file or a PostgreSQL database. The store's
/// queries run in its transactions, through an ``SQLSession``; nothing above the store knows which one it has.
protocol HistoryDatabase: Sendable {
    /// Where the history lives, as errors show it (a URL's password never).
    var location: HistoryLocation { get }

    /// Runs `body` in a write transaction on the calling thread; commits when it returns, rolls back when it throws.
    func write<T>(_ body: (SQLSession) throws -> T) throws -> T

    /// Runs `body` in a read-only transaction that sees one snapshot of the history, on the calling thread.
    func read<T>(_ body: (SQLSession) throws -> T) throws -> T

    /// Runs `second` on a thread of its own and `first` on the calling thread, each in a read-only transaction, both
    /// seeing one snapshot of the history, and returns when both are done (with `first`'s error, else `second`'s).
    /// `release` lets `second` end (closes what it waits on): it is called once `first` is done, or could not begin.
    /// Returns `false`, having run neither, when this database cannot give two transactions one snapshot at the moment
    /// (throws instead when the second could not begin its transaction).
    func readAlongside(
        _ first: (SQLSession) throws -> Void, _ second: @escaping @Sendable (SQLSession) throws -> Void,
        release: () -> Void
    ) throws -> Bool

    /// ``write(_:)`` without blocking the calling thread (for writes made on Swift concurrency's few threads).
    func write<T: Sendable>(_ body: @escaping @Sendable (SQLSession) throws -> T) async throws -> T

    /// ``read(_:)`` without blocking the calling thread.
    func read<T: Sendable>(_ body: @escaping @Sendable (SQLSession) throws -> T) async throws -> T

    /// Makes rows just loaded in bulk (a copied history) as cheap to read as rows that have settled, outside any
    /// transaction: PostgreSQL's `VACUUM (ANALYZE)` (row visibility recorded once, not by the first reads; the
    /// planner's statistics of the new tables); nothing for SQLite, whose reads need neither.
    func settleBulkLoad() throws

    /// `error`, thrown by this database or by a body, as a person reads it.
    func historyError(_ error: any Error) -> HistoryError

    /// Whether `error` is this database's (or a stored value that does not read back), not a body's own.
    func isStorageError(_ error: any Error) -> Bool

    /// Stores `objects` in the transaction `db`, each with its raw JSON and its change: new, updated or unchanged,
    /// counted once per run by ``WriteOutcome``'s rule, however the database writes them.
    func upsert<Facts: StorableFacts>(
        _ objects: [StoredObject<Facts>], db: SQLSession, run runID: Int64
    ) throws -> WriteOutcome
}
