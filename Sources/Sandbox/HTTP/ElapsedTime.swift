/// Time elapsed since the server started, read from an injected clock: the continuous clock in production, a
/// manual clock in tests, so that a test lets a rate window pass by advancing the clock instead of waiting.
struct ElapsedTime: Sendable {
    private let read: @Sendable () -> Duration

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        read = { origin.duration(to: clock.now) }
    }

    /// Nanoseconds since the clock was first read (0 should it ever read earlier).
    var nanoseconds: UInt64 { UInt64(max(0, read().wholeNanoseconds)) }
}

extension Duration {
    /// The duration in whole nanoseconds, rounded towards zero.
    var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
