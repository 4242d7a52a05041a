import Foundation
import Synchronization

/// A clock whose time moves only when a test says so, so that waits on it take no real time.
///
/// Sleepers are resumed by ``advance(by:)`` in the order of their deadlines; a cancelled sleeper throws
/// `CancellationError` at once. With `advancesToEachSleeper`, the clock jumps to each new sleeper's deadline as
/// soon as it starts sleeping: for a test that runs one task and only wants time to pass as that task waits.
public final class ManualClock: Clock, Sendable {
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

    /// What the clock knows, behind one lock.
    private struct State {
        var current = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID = 0
        /// Sleepers cancelled before they were registered.
        var cancelledIDs: Set<Int> = []
        /// Tasks waiting for a number of sleepers.
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Removes and returns the sleepers whose deadline has come, earliest first.
        mutating func takeDue() -> [Sleeper] {
            let due = sleepers.filter { $0.deadline <= current }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
    }

    private let advancesToEachSleeper: Bool
    private let state = Mutex(State())

    public init(advancesToEachSleeper: Bool = false) {
        self.advancesToEachSleeper = advancesToEachSleeper
    }

    public var now: Instant { state.withLock { $0.current } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
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
        let due: [Sleeper] = state.withLock { state in
            state.current = state.current.advanced(by: duration)
            return state.takeDue()
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks are sleeping on the clock.
    public func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.sleepers.count >= count { return true }
                state.watchers.append((count, continuation))
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
        let advancesToEachSleeper = advancesToEachSleeper
        let outcome: Outcome = state.withLock { state in
            if state.cancelledIDs.remove(sleeper.id) != nil { return .cancelled }
            if advancesToEachSleeper, state.current < sleeper.deadline { state.current = sleeper.deadline }
            state.sleepers.append(sleeper)
            if sleeper.deadline <= state.current { return .due(state.takeDue()) }
            let count = state.sleepers.count
            let satisfied = state.watchers.filter { $0.count <= count }
            state.watchers.removeAll { $0.count <= count }
            return .sleeping(satisfied.map(\.continuation))
        }
        switch outcome {
        case .cancelled: sleeper.continuation.resume(throwing: CancellationError())
        case .due(let due): for each in due { each.continuation.resume() }
        case .sleeping(let watchers): for watcher in watchers { watcher.resume() }
        }
    }

    private func cancel(_ id: Int) {
        let cancelled: Sleeper? = state.withLock { state in
            guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                state.cancelledIDs.insert(id)
                return nil
            }
            return state.sleepers.remove(at: index)
        }
        cancelled?.continuation.resume(throwing: CancellationError())
    }
}
