import Synchronization

/// A clock that moves only when a test advances it, so the sandbox's rate windows pass without anyone waiting.
final class ManualClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
    }

    private let state = Mutex(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// Moves the clock forward and wakes the sleepers whose deadline it reached.
    func advance(by duration: Duration) {
        let woken = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Returns once the clock has been advanced to `deadline`.
    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        await withCheckedContinuation { continuation in
            let due = state.withLock { state in
                guard deadline > state.now else { return true }
                state.sleepers.append(Sleeper(deadline: deadline, continuation: continuation))
                return false
            }
            if due { continuation.resume() }
        }
        try Task.checkCancellation()
    }
}
