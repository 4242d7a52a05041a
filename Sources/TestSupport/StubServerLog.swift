import Synchronization

/// What a ``StubServer`` saw, shared with its connections' handlers, and the tests waiting for it to see more.
final class StubServerLog: Sendable {
    /// The events so far.
    struct Seen: Sendable {
        var requests: [StubServer.Request] = []
        var acceptedConnections = 0
        var closedConnections: Set<Int> = []
    }

    /// A test waiting until `condition` holds.
    private struct Waiter {
        var condition: @Sendable (Seen) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var seen = Seen()
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        var isStopped = false
    }

    private let state = Mutex(State())

    var seen: Seen { state.withLock { $0.seen } }

    /// Counts a new connection and returns its number (1, 2, …).
    func connectionAccepted() -> Int {
        record { seen in
            seen.acceptedConnections += 1
            return seen.acceptedConnections
        }
    }

    func connectionClosed(_ connection: Int) {
        record { $0.closedConnections.insert(connection) }
    }

    func received(_ request: StubServer.Request) {
        record { $0.requests.append(request) }
    }

    /// Wakes every waiter: nothing more will happen.
    func stop() {
        let waiters = state.withLock { state in
            state.isStopped = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.continuation.resume() }
    }

    /// Suspends until `condition` holds for what was seen; returns whether it does (`false` when the server
    /// stopped or the task was cancelled first).
    @discardableResult
    func wait(until condition: @escaping @Sendable (Seen) -> Bool) async -> Bool {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if condition(state.seen) || state.isStopped || Task.isCancelled { return true }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
        return state.withLock { condition($0.seen) }
    }

    /// Applies `change`, then resumes the waiters whose condition now holds.
    private func record<T>(_ change: (inout Seen) -> T) -> T {
        let (result, ready) = state.withLock { state in
            let result = change(&state.seen)
            let seen = state.seen
            let ready = state.waiters.filter { $0.value.condition(seen) }
            for id in ready.keys { state.waiters.removeValue(forKey: id) }
            return (result, ready.values.map(\.continuation))
        }
        for continuation in ready { continuation.resume() }
        return result
    }
}
