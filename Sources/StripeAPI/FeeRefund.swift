import ReconCore

/// A refund of an application fee (`fr_…`): https://docs.stripe.com/api/fee_refunds/object.
public struct FeeRefund: StripeObject {
    /// `"fee_refund"`.
    public static let objectType = "fee_refund"

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
    public let metadata: [String: String]

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

    /// Decodes a fee refund; see ``StripeObject`` for the rules.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.requireObjectType(Self.objectType, forKey: .object)
        id = try c.decode(String.self, forKey: .id)
        amount = try c.decode(Int64.self, forKey: .amount)
        balanceTransaction = try c.decodeIfPresent(ExpandableID.self, forKey: .balanceTransaction)
        created = try c.decode(Int64.self, forKey: .created)
        currency = try c.decode(Currency.self, forKey: .currency)
        fee = try c.decode(ExpandableID.self, forKey: .fee)
        metadata = try c.decodeMetadata(forKey: .metadata)
    }
}
