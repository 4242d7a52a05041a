/// Stripe's own Balance reports of a range and currency (`balance.summary.1` and
/// `balance_change_from_activity.summary.1`), or why they could not be compared (docs/RULES.md, "The books close").
public enum StripeReportComparison: Sendable, Equatable {
    /// Both reports, as Stripe published them.
    case published(balance: BalanceSummaryReport, activity: ActivitySummaryReport)
    /// Stripe has not published the range's data yet: a later run compares it.
    case notYetPublished
    /// The key may not run reports (403, or a report type this mode does not offer); the reason in words.
    case notPermitted(String)
    /// The reports could not be had (a run failed or never finished, a file on a host the key is not sent to, a
    /// file that could not be read); the reason in words.
    case unavailable(String)
}
