/// One row of `balance.csv`: the roll-forward of one currency and balance type over the range, and its proofs
/// (docs/RULES.md, "The books close"; docs/REPORTS.md, `balance.csv`). Amounts are minor units of ``currency``.
public struct BalanceRow: Sendable, Hashable, Codable {
    public var currency: Currency
    public var balanceType: BalanceType
    /// The balance at `from`: ``endingBalance`` less the range's activity and payouts; `nil` when the ending balance
    /// is unknown.
    public var startingBalance: Int64?
    /// Σ `net` dated in the range outside the payout categories.
    public var activity: Int64
    /// ``activity`` by reporting category, by category name.
    public var activityByCategory: [CategoryNet]
    /// Σ `net` dated in the range in the categories `payout` and `payout_reversal` (negative when money left).
    public var payouts: Int64
    /// The balance at `to`, from ``stripeBalance`` carried back; `nil` without a snapshot the history can reach.
    public var endingBalance: Int64?
    /// The automatic payouts created before the snapshot and arriving after it (positive).
    public var inTransitPayouts: Int64?
    /// The snapshot the ending balance is anchored on, and its moment (Unix seconds).
    public var stripeBalance: Int64?
    public var stripeBalanceAt: Int64?
    /// ``startingBalance`` less what the history's earlier snapshots imply at `from`; `nil` when there is no
    /// earlier snapshot to compare with.
    public var continuityDifference: Int64?
    /// How the row compares with Stripe's own Balance report.
    public var stripeReport: StripeReportStatus
    /// Our ``endingBalance`` less Stripe's, when Stripe's report was compared.
    public var stripeReportDifference: Int64?

    public init(
        currency: Currency, balanceType: BalanceType, startingBalance: Int64?, activity: Int64,
        activityByCategory: [CategoryNet], payouts: Int64, endingBalance: Int64?, inTransitPayouts: Int64?,
        stripeBalance: Int64?, stripeBalanceAt: Int64?, continuityDifference: Int64?,
        stripeReport: StripeReportStatus, stripeReportDifference: Int64?
    ) {
        self.currency = currency
        self.balanceType = balanceType
        self.startingBalance = startingBalance
        self.activity = activity
        self.activityByCategory = activityByCategory
        self.payouts = payouts
        self.endingBalance = endingBalance
        self.inTransitPayouts = inTransitPayouts
        self.stripeBalance = stripeBalance
        self.stripeBalanceAt = stripeBalanceAt
        self.continuityDifference = continuityDifference
        self.stripeReport = stripeReport
        self.stripeReportDifference = stripeReportDifference
    }

    /// The net of one reporting category.
    public struct CategoryNet: Sendable, Hashable, Codable {
        public var category: ReportingCategory
        public var net: Int64

        public init(category: ReportingCategory, net: Int64) {
            self.category = category
            self.net = net
        }
    }

    /// Whether the books close for this balance: it rolls forward from a known ending balance, is continuous with
    /// the history's earlier snapshots (or has none to compare with), and Stripe's report, when compared, agrees.
    public var closes: Bool {
        endingBalance != nil && (continuityDifference ?? 0) == 0 && stripeReport != .differs
    }
}

/// How a balance compares with Stripe's own Balance report (`balance.csv`'s `stripe_report`).
public enum StripeReportStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Starting, activity (and each category), payouts and ending agree to the minor unit.
    case agrees
    /// Some figure differs: see the `stripe_report_mismatch` exceptions.
    case differs
    /// Stripe has not published the range yet; a later run compares it.
    case notYetPublished = "not_yet_published"
    /// The key may not run reports.
    case notPermitted = "not_permitted"
    /// Not compared: turned off, a balance type Stripe's report does not cover, or the report could not be had.
    case notCompared = "not_compared"
}
