/// Stripe's `balance.summary.1` report for one currency and interval: the balance at the start, what activity and
/// payouts changed, and the balance at the end (https://docs.stripe.com/reports/report-types/balance).
///
/// Amounts are minor units of ``currency``, read exactly from the report's major-unit decimals.
public struct BalanceSummaryReport: Sendable, Equatable {
    public var currency: Currency
    /// The interval the report covers, `[intervalStart, intervalEnd)` in Unix seconds.
    public var intervalStart: Int64
    public var intervalEnd: Int64
    /// The `starting_balance` row: the balance at ``intervalStart``.
    public var starting: Int64
    /// The `activity` row: the net of every balance transaction in the interval but payouts.
    public var activity: Int64
    /// The `payouts` row: the net of the payouts (and their reversals) in the interval.
    public var payouts: Int64
    /// The `ending_balance` row: the balance at ``intervalEnd``.
    public var ending: Int64

    public init(
        currency: Currency, intervalStart: Int64, intervalEnd: Int64, starting: Int64, activity: Int64,
        payouts: Int64, ending: Int64
    ) {
        self.currency = currency
        self.intervalStart = intervalStart
        self.intervalEnd = intervalEnd
        self.starting = starting
        self.activity = activity
        self.payouts = payouts
        self.ending = ending
    }
}
