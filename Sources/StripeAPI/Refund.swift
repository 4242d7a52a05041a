import ReconCore

/// A refund (`re_…`) of a charge: https://docs.stripe.com/api/refunds/object.
///
/// On a destination charge refunded with `reverse_transfer`, ``transferReversal`` names the reversal that
/// pulled the funds back from the connected account; without it, the platform covers the refund.
public struct Refund: StripeObject {
    /// `"refund"`.
    public static let objectType = "refund"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<Refund>
    /// The refund's id.
    public let id: String
    /// The amount refunded, in minor units of ``currency``.
    public let amount: Int64
    /// The refund's balance transaction on the platform.
    public let balanceTransaction: ExpandableID?
    /// The refunded charge.
    public let charge: ExpandableID?
    /// When the refund was created, in Unix seconds.
    public let created: Int64
    /// The refund's currency.
    public let currency: Currency
    /// The balance transaction that returned the funds when the refund failed or was canceled. May be absent.
    public let failureBalanceTransaction: ExpandableID?
    /// Why the refund failed, for example `expired_or_canceled_card`. May be absent.
    public let failureReason: String?
    /// The platform's key-value metadata; empty when Stripe sent none or `null`.
    @StripeMetadata public var metadata: [String: String]
    /// The refunded PaymentIntent.
    public let paymentIntent: ExpandableID?
    /// Why the refund was made, if given.
    public let reason: RefundReason?
    /// On the connected account's side, the transfer reversal that caused this refund.
    public let sourceTransferReversal: ExpandableID?
    /// Where the refund is; `nil` when Stripe sends none.
    public let status: RefundStatus?
    /// The transfer reversal made with this refund (`reverse_transfer`), for destination charges.
    public let transferReversal: ExpandableID?

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case amount
        case balanceTransaction = "balance_transaction"
        case charge
        case created
        case currency
        case failureBalanceTransaction = "failure_balance_transaction"
        case failureReason = "failure_reason"
        case metadata
        case paymentIntent = "payment_intent"
        case reason
        case sourceTransferReversal = "source_transfer_reversal"
        case status
        case transferReversal = "transfer_reversal"
    }
}
