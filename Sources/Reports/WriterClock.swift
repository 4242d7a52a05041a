import ReconCore

/// Seconds between laps, for ``ReportStream/Timings``.
struct WriterClock {
    private var last = ContinuousClock.now

    mutating func lap() -> Double {
        let now = ContinuousClock.now
        defer { last = now }
        return (now - last).inSeconds
    }
}
