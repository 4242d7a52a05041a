/// The extraction's page writes, committed together when they queue: while one transaction runs, the pages that
/// arrive wait, and the next transaction stores all of them, each with its own outcome.
///
/// A loopback or fast extraction fetches pages faster than one transaction a page can store them. Each commit
/// writes the pages it touched to the WAL again (the indexes' inner pages every time), so storing the queued pages in
/// one transaction does the same upserts with a fraction of the commits. Each page's writes stay whole: its objects
/// and its window's checkpoint commit together, never apart. When the transaction fails, every page of it fails
/// with the error (the run fails on any write error anyway).
///
/// No task of its own commits: the page task that finds no transaction running leads, storing its own writes and
/// whatever queued meanwhile, and hands the lead to the first page that queued during that transaction, so every
/// transaction runs in a task of the extraction's tree (structured: cancelled and awaited with it).
actor GroupCommit {
    /// One page's writes, and who waits for its outcome.
    private struct Pending {
        var body: @Sendable (SQLSession) throws -> WriteOutcome
        var continuation: CheckedContinuation<Turn, any Error>
    }

    /// What a queued page is told when it resumes.
    private enum Turn {
        /// Another page's transaction stored its writes.
        case written(WriteOutcome)
        /// Its writes are still to store, and it leads the next transaction.
        case lead
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
        if committing {
            let turn = try await withCheckedThrowingContinuation { continuation in
                pending.append(Pending(body: body, continuation: continuation))
            }
            if case .written(let outcome) = turn { return outcome }
        }
        committing = true
        let queued = pending
        pending = []
        let bodies = [body] + queued.map(\.body)
        do {
            let outcomes = try await access.database.write { db in try bodies.map { try $0(db) } }
            commits += 1
            written.commit()
            for (waiting, outcome) in zip(queued, outcomes.dropFirst()) {
                waiting.continuation.resume(returning: .written(outcome))
            }
            handOffLead()
            return outcomes[0]
        } catch {
            written.discard()
            for waiting in queued { waiting.continuation.resume(throwing: error) }
            handOffLead()
            throw error
        }
    }

    /// Lets the first page that queued during the transaction lead the next one; none queued, the next to write leads.
    private func handOffLead() {
        guard !pending.isEmpty else {
            committing = false
            return
        }
        pending.removeFirst().continuation.resume(returning: .lead)
    }
}
