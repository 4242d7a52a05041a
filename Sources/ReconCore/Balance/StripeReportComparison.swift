/// Stripe's own Balance reports of a range and currency (`balance.summary.1` and
/// `balance_change_from_activity.summary.1`), or why they could not be compared.
public enum StripeReportComparison: Sendable, Hashable {
    /// Stripe's figures, minor units of the currency.
    case published(StripeBalanceSummary)
    /// Stripe has not published the range's data yet: a later run compares it.
    case notYetPublished
    /// The key may not run reports (403, or a report type this mode does not offer).
    case notPermitted(String)
    /// The report could not be had: it failed, never finished, or its file was refused or unreadable.
    case unavailable(String)
}

/// Stripe's Balance summary of one currency over a range, minor units.
public struct StripeBalanceSummary: Sendable, Hashable {
    public var startingBalance: Int64
    public var activity: Int64
    public var payouts: Int64
    public var endingBalance: Int64
    /// `balance_change_from_activity.summary.1`: net per reporting category.
    public var activityByCategory: [ReportingCategory: Int64]

    public init(
        startingBalance: Int64, activity: Int64, payouts: Int64, endingBalance: Int64,
        activityByCategory: [ReportingCategory: Int64]
    ) {
        self.startingBalance = startingBalance
        self.activity = activity
        self.payouts = payouts
        self.endingBalance = endingBalance
        self.activityByCategory = activityByCategory
    }
}
