/// How a report run is waited for: the first poll after ``firstDelay``, each wait twice the one before up to
/// ``maxDelay``, and no poll after ``limit`` (then the report has timed out: an outcome, not a hang).
public struct ReportPolling: Sendable, Equatable {
    /// The wait before the first poll.
    public var firstDelay: Duration
    /// No wait between polls is longer.
    public var maxDelay: Duration
    /// The longest a run is waited for, from its creation; the last poll is at this moment.
    public var limit: Duration

    /// Defaults: half a second, doubling to 30 s, for at most 10 minutes.
    public init(
        firstDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30), limit: Duration = .seconds(600)
    ) {
        self.firstDelay = firstDelay
        self.maxDelay = maxDelay
        self.limit = limit
    }
}
