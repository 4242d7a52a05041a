import ReconCore

/// A refund of an application fee (`fr_…`): https://docs.stripe.com/api/fee_refunds/object.
public struct FeeRefund: StripeObject {
    /// `"fee_refund"`.
    public static let objectType = "fee_refund"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<FeeRefund>
    /// The fee refund's id.
    public let id: String
    /// The amount refunded, in minor units of ``currency``.
    public let amount: Int64
    /// The refund's balance transaction on the platform.
    public let balanceTransaction: ExpandableID?
    /// When the refund was created, in Unix seconds.
    public let created: Int64
    /// The refund's currency.
    public let currency: Currency
    /// The application fee that was refunded.
    public let fee: ExpandableID
    /// The platform's key-value metadata; empty when Stripe sent none or `null`.
    @StripeMetadata public var metadata: [String: String]

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case amount
        case balanceTransaction = "balance_transaction"
        case created
        case currency
        case fee
        case metadata
    }
}
