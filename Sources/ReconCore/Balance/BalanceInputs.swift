/// What the roll-forward of a range needs (docs/RULES.md, "The books close"), as the history adds it up: the net of
/// the range's balance transactions by how Stripe's Balance report dates them, the snapshot the ending balance is
/// anchored on, and an earlier snapshot for continuity.
public struct BalanceInputs: Sendable, Equatable {
    /// Per key and reporting category: Σ `net` of the balance transactions dated in `[from, to)` (a transaction is
    /// dated at its `created`, an automatic payout's `payout` transaction at its `available_on`).
    public var dated: [BalanceKey: [ReportingCategory: Int64]]
    /// Balances whose transactions of the range add up past 64 bits (corrupt amounts): left out of ``dated``.
    public var overflowed: Set<BalanceKey> = []
    /// The nearest snapshot at or after `to` that the history can carry back to `to`; `nil`: none (the run read no
    /// balance and the history holds none it can reach).
    public var ending: BalanceAnchor?
    /// The snapshot before ``ending`` nearest `from` that the history can carry to `from`: what the history's
    /// earlier runs imply the starting balance is. `nil`: no earlier snapshot (continuity is not compared).
    public var earlier: BalanceAnchor?
    /// Stripe's own reports of the range, per currency, as far as they could be compared.
    public var stripeReports: [Currency: StripeReportComparison] = [:]
    /// The range as its report folder is named (`2026-11-20_2026-11-21`): part of the findings' object ids.
    public var rangeName = ""

    public init(
        dated: [BalanceKey: [ReportingCategory: Int64]], overflowed: Set<BalanceKey> = [], ending: BalanceAnchor?,
        earlier: BalanceAnchor?,
        stripeReports: [Currency: StripeReportComparison] = [:]
    ) {
        self.dated = dated
        self.overflowed = overflowed
        self.ending = ending
        self.earlier = earlier
        self.stripeReports = stripeReports
    }
}
