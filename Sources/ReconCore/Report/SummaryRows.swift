/// One point of the Summary's per-day series: the destination charges of one currency created on one day of the
/// range (days in the configured time zone, see ``ReportingDays``). Every currency with destination charges has a
/// row for every day of the range, zero when it had none that day, so a chart of the series has no gaps.
public struct DailyPlatformFeeRow: Sendable, Hashable, Codable {
    /// The day's local date, `2026-11-20`.
    public var day: String
    public var currency: Currency
    /// How many destination charges were created that day.
    public var destinationCharges: Int
    /// The sum of their `destination_platform_fee`, minor units of `currency`.
    public var destinationPlatformFee: Int64

    public init(day: String, currency: Currency, destinationCharges: Int, destinationPlatformFee: Int64) {
        self.day = day
        self.currency = currency
        self.destinationCharges = destinationCharges
        self.destinationPlatformFee = destinationPlatformFee
    }
}

/// How many findings of one kind the report holds, by status, and how many of that kind an earlier run reported
/// about objects this run judged that are gone now.
public struct FindingCountRow: Sendable, Hashable, Codable {
    /// `skipped_transfer`, `unreversed_dispute`, or an exception kind such as `application_fee_missing`.
    public var kind: String
    /// First seen in this run.
    public var new: Int
    /// Seen in an earlier run and still there.
    public var open: Int
    /// Reported by an earlier run about an object this run judged, gone now.
    public var resolved: Int

    public init(kind: String, new: Int = 0, open: Int = 0, resolved: Int = 0) {
        self.kind = kind
        self.new = new
        self.open = open
        self.resolved = resolved
    }
}
