import ReconCore

extension ReportSummaries {
    /// The two reports as the roll-forward compares them: both published, or the first reason one is missing (not
    /// published yet before not permitted, before any other failure).
    public var comparison: StripeReportComparison {
        if let balance = balance.report, let activity = activity.report {
            return .published(balance: balance, activity: activity)
        }
        let outcomes: [(report: String, notYetPublished: Bool, notPermitted: String?, message: String?)] = [
            ("balance.summary.1", balance.isNotYetPublished, balance.notPermittedReason, balance.message),
            (
                "balance_change_from_activity.summary.1", activity.isNotYetPublished, activity.notPermittedReason,
                activity.message
            ),
        ]
        if outcomes.contains(where: \.notYetPublished) { return .notYetPublished }
        if let denied = outcomes.first(where: { $0.notPermitted != nil }) {
            return .notPermitted("\(denied.report): \(denied.notPermitted ?? "")")
        }
        let missing = outcomes.compactMap { outcome in outcome.message.map { "\(outcome.report): \($0)" } }
        return .unavailable(missing.joined(separator: " "))
    }
}

extension ReportOutcome {
    fileprivate var isNotYetPublished: Bool {
        if case .notYetPublished = self { return true }
        return false
    }

    fileprivate var notPermittedReason: String? {
        if case .notPermitted(let reason) = self { return reason }
        return nil
    }
}
