import ReconCore

/// Stripe's two summary reports for one currency over one interval, each as its outcome.
public struct ReportSummaries: Sendable, Equatable {
    public var currency: Currency
    /// `balance.summary.1`.
    public var balance: ReportOutcome<BalanceSummaryReport>
    /// `balance_change_from_activity.summary.1`.
    public var activity: ReportOutcome<ActivitySummaryReport>

    public init(
        currency: Currency, balance: ReportOutcome<BalanceSummaryReport>,
        activity: ReportOutcome<ActivitySummaryReport>
    ) {
        self.currency = currency
        self.balance = balance
        self.activity = activity
    }
}
