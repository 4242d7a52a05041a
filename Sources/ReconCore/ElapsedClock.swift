/// A clock as rate windows, the rate budget and the retry back-off read it: the time elapsed since it was made,
/// and sleeping until a later elapsed time.
///
/// It wraps any `Clock` measured in `Duration` (the continuous clock in production, a manual one in tests) so that
/// the types holding it need not be generic over the clock.
public struct ElapsedClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
    }

    /// The time since the clock was made.
    public var now: Duration { elapsed() }

    /// Sleeps until ``now`` reaches `deadline`; throws `CancellationError` at once when the task is cancelled.
    public func sleep(until deadline: Duration) async throws { try await sleeper(deadline) }

    /// Sleeps for `duration`; throws `CancellationError` at once when the task is cancelled.
    public func sleep(for duration: Duration) async throws { try await sleeper(elapsed() + duration) }
}
