import ReconCore

/// A dispute (`dp_…` or `du_…`; do not rely on the prefix) of a charge:
/// https://docs.stripe.com/api/disputes/object.
///
/// For destination charges Stripe debits the disputed amount and the dispute fee from the platform and does
/// not reverse the transfer: recovering the funds from the connected account is the platform's job.
public struct Dispute: StripeObject {
    /// `"dispute"`.
    public static let objectType = "dispute"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<Dispute>
    /// The dispute's id.
    public let id: String
    /// The disputed amount, in minor units of ``currency``: usually the charge's amount, but it can differ.
    public let amount: Int64
    /// Zero, one or two balance transactions: the funds withdrawn and, after a win, reinstated. Empty for
    /// inquiries.
    public let balanceTransactions: [BalanceTransaction]
    /// The disputed charge.
    public let charge: ExpandableID
    /// When the dispute was created, in Unix seconds.
    public let created: Int64
    /// The disputed amount's currency.
    public let currency: Currency
    /// Whether the disputed charge can still be refunded.
    public let isChargeRefundable: Bool
    /// `true` in live mode, `false` in test mode.
    public let livemode: Bool
    /// The platform's key-value metadata; empty when Stripe sent none or `null`.
    @StripeMetadata public var metadata: [String: String]
    /// The disputed charge's PaymentIntent.
    public let paymentIntent: ExpandableID?
    /// The reason the cardholder gave.
    public let reason: DisputeReason
    /// Where the dispute is; see ``DisputeStatus/fundsWithdrawn``.
    public let status: DisputeStatus

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case amount
        case balanceTransactions = "balance_transactions"
        case charge
        case created
        case currency
        case isChargeRefundable = "is_charge_refundable"
        case livemode
        case metadata
        case paymentIntent = "payment_intent"
        case reason
        case status
    }
}
