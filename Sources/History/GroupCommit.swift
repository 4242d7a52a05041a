/// The extraction's page writes, committed together when they queue: while one transaction runs, the pages that
/// arrive wait, and the next transaction stores all of them, each with its own outcome.
///
/// A loopback or fast extraction fetches pages faster than one transaction a page can store them. Each commit
/// writes the pages it touched to the WAL again (the indexes' inner pages every time), so storing the queued pages in
/// one transaction does the same upserts with a fraction of the commits. Each page's writes stay whole: its objects
/// and its window's checkpoint commit together, never apart. When the transaction fails, every page of it fails
/// with the error (the run fails on any write error anyway).
actor GroupCommit {
    /// One page's writes, and who waits for its outcome.
    private struct Pending {
        var body: @Sendable (SQLSession) throws -> WriteOutcome
        var continuation: CheckedContinuation<WriteOutcome, any Error>
    }

    private let access: HistoryAccess
    private var pending: [Pending] = []
    private var committing = false
    /// Transactions committed so far (the pages they held are more).
    private(set) var commits = 0
    /// What this run's committed page writes stored, for the pages to leave out what they hold again.
    nonisolated let written = RunWrites()

    init(_ access: HistoryAccess) { self.access = access }

    /// Runs `body` in a write transaction, with whatever other writes are queued by then, and returns its outcome.
    func write(_ body: @escaping @Sendable (SQLSession) throws -> WriteOutcome) async throws -> WriteOutcome {
        try await withCheckedThrowingContinuation { continuation in
            pending.append(Pending(body: body, continuation: continuation))
            if !committing {
                committing = true
                Task { await commitQueued() }
            }
        }
    }

    /// Commits what is queued, one transaction at a time, until nothing is.
    private func commitQueued() async {
        while !pending.isEmpty {
            let group = pending
            pending = []
            let bodies = group.map(\.body)
            do {
                let outcomes = try await access.database.write { db in try bodies.map { try $0(db) } }
                commits += 1
                written.commit()
                for (waiting, outcome) in zip(group, outcomes) { waiting.continuation.resume(returning: outcome) }
            } catch {
                written.discard()
                for waiting in group { waiting.continuation.resume(throwing: error) }
            }
        }
        committing = false
    }
}
