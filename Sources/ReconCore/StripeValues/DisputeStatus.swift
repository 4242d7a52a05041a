/// A dispute's `status` (https://docs.stripe.com/api/disputes/object#dispute_object-status). Open: a value Stripe
/// adds later still decodes.
public struct DisputeStatus: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// An inquiry (no funds withdrawn) that needs a response.
    public static let warningNeedsResponse = DisputeStatus(rawValue: "warning_needs_response")
    /// An inquiry (no funds withdrawn) under review.
    public static let warningUnderReview = DisputeStatus(rawValue: "warning_under_review")
    /// An inquiry closed without becoming a chargeback.
    public static let warningClosed = DisputeStatus(rawValue: "warning_closed")
    /// A chargeback: the funds were withdrawn and evidence is due.
    public static let needsResponse = DisputeStatus(rawValue: "needs_response")
    /// A chargeback under review after evidence was submitted.
    public static let underReview = DisputeStatus(rawValue: "under_review")
    /// Decided for the platform: the funds were returned.
    public static let won = DisputeStatus(rawValue: "won")
    /// Decided for the cardholder: the funds stay withdrawn.
    public static let lost = DisputeStatus(rawValue: "lost")
    /// Prevented before becoming a chargeback: the funds are returned.
    public static let prevented = DisputeStatus(rawValue: "prevented")

    /// The eight values in Stripe's API description (`prevented` was added after 2023).
    public static let knownValues: [DisputeStatus] = [
        warningNeedsResponse, warningUnderReview, warningClosed, needsResponse, underReview, won, lost, prevented,
    ]

    // MARK: Reconciliation

    /// Whether the dispute's funds were withdrawn from the platform and not returned (docs/RULES.md): true for
    /// `needs_response`, `under_review` and `lost`; "inquiries with `warning_*` statuses debit nothing, and
    /// `won` / `prevented` disputes return the funds". `false` for a status this code does not know.
    public var fundsWithdrawn: Bool {
        self == .needsResponse || self == .underReview || self == .lost
    }

    /// Whether this is an inquiry (`warning_*`), which never moves money.
    public var isInquiry: Bool {
        self == .warningNeedsResponse || self == .warningUnderReview || self == .warningClosed
    }
}
