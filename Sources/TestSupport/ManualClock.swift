import Foundation

/// A clock whose time moves only when a test says so, so that waits on it take no real time.
///
/// Sleepers are resumed by ``advance(by:)`` in the order of their deadlines; a cancelled sleeper throws
/// `CancellationError` at once. With `advancesToEachSleeper`, the clock jumps to each new sleeper's deadline as
/// soon as it starts sleeping: for a test that runs one task and only wants time to pass as that task waits.
public final class ManualClock: Clock, @unchecked Sendable {
    public struct Instant: InstantProtocol {
        /// Time since the clock was made.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let advancesToEachSleeper: Bool
    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var nextID = 0
    /// Sleepers cancelled before they were registered.
    private var cancelledIDs: Set<Int> = []
    /// Tasks waiting for a number of sleepers.
    private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    public init(advancesToEachSleeper: Bool = false) {
        self.advancesToEachSleeper = advancesToEachSleeper
    }

    public var now: Instant { lock.withLock { current } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                register(Sleeper(id: id, deadline: deadline, continuation: continuation))
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// Moves time forward by `duration`, resuming every sleeper whose deadline it reaches, earliest first.
    public func advance(by duration: Duration) {
        let due: [Sleeper] = lock.withLock {
            current = current.advanced(by: duration)
            return takeDue()
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks are sleeping on the clock.
    public func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock {
                if sleepers.count >= count { return true }
                watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func register(_ sleeper: Sleeper) {
        enum Outcome {
            case cancelled
            case due([Sleeper])
            case sleeping([CheckedContinuation<Void, Never>])
        }
        let outcome: Outcome = lock.withLock {
            if cancelledIDs.remove(sleeper.id) != nil { return .cancelled }
            if advancesToEachSleeper, current < sleeper.deadline { current = sleeper.deadline }
            sleepers.append(sleeper)
            if sleeper.deadline <= current { return .due(takeDue()) }
            let satisfied = watchers.filter { $0.count <= sleepers.count }
            watchers.removeAll { $0.count <= sleepers.count }
            return .sleeping(satisfied.map(\.continuation))
        }
        switch outcome {
        case .cancelled: sleeper.continuation.resume(throwing: CancellationError())
        case .due(let due): for each in due { each.continuation.resume() }
        case .sleeping(let watchers): for watcher in watchers { watcher.resume() }
        }
    }

    private func cancel(_ id: Int) {
        let cancelled: Sleeper? = lock.withLock {
            guard let index = sleepers.firstIndex(where: { $0.id == id }) else {
                cancelledIDs.insert(id)
                return nil
            }
            return sleepers.remove(at: index)
        }
        cancelled?.continuation.resume(throwing: CancellationError())
    }

    /// Removes and returns the sleepers whose deadline has come, earliest first. Called with the lock held.
    private func takeDue() -> [Sleeper] {
        let due = sleepers.filter { $0.deadline <= current }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        sleepers.removeAll { $0.deadline <= current }
        return due
    }
}
