import ReconCore

/// Why an extraction could not run at all.
public enum ExtractionError: ActionableError, Equatable {
    /// The whole range lies within the settle margin: Stripe may not show its objects yet.
    case rangeTooRecent(to: String, margin: Int)
    /// Follow-ups kept finding new references after many rounds: the data loops.
    case followUpsDidNotSettle(rounds: Int, remaining: Int)

    public var message: String {
        switch self {
        case .rangeTooRecent(let to, let margin):
            "The range ends at \(to), within the last \(margin) seconds (range.settle_margin_seconds): Stripe may not "
                + "show those objects yet. Run it a few minutes later, or end the range earlier."
        case .followUpsDidNotSettle(let rounds, let remaining):
            "After \(rounds) rounds of follow-up requests, \(remaining) referenced objects were still missing. "
                + "This points at inconsistent data; the history holds everything fetched so far."
        }
    }

    public var isBadInput: Bool {
        if case .rangeTooRecent = self { return true }
        return false
    }
}
