import ReconCore

/// A transfer (`tr_…`) from the platform to a connected account: https://docs.stripe.com/api/transfers/object.
///
/// For a destination charge, ``sourceTransaction`` is the platform's charge and ``amount`` is the full charge
/// amount ("application fee" style) or `transfer_data[amount]`.
public struct Transfer: StripeObject {
    /// `"transfer"`.
    public static let objectType = "transfer"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<Transfer>
    /// The transfer's id.
    public let id: String
    /// The amount transferred, in minor units of ``currency``.
    public let amount: Int64
    /// The amount reversed so far (cumulative), by refunds and by manual reversals.
    public let amountReversed: Int64
    /// The transfer's balance transaction on the platform.
    public let balanceTransaction: ExpandableID?
    /// When the transfer was created, in Unix seconds.
    public let created: Int64
    /// The transfer's currency.
    public let currency: Currency
    /// The transfer's description.
    public let description: String?
    /// The connected account that received the funds.
    public let destination: ExpandableID?
    /// The payment (`py_…`) the transfer created on the connected account. May be absent from the JSON.
    public let destinationPayment: ExpandableID?
    /// `true` in live mode, `false` in test mode.
    public let livemode: Bool
    /// The platform's key-value metadata; empty when Stripe sent none or `null`.
    @StripeMetadata public var metadata: [String: String]
    /// The transfer's reversals: at most the 10 most recent; page the rest (`/v1/transfers/{id}/reversals`)
    /// when ``StripeList/hasMore``.
    public let reversals: StripeList<TransferReversal>
    /// Whether the transfer was fully reversed (a partial reversal leaves it `false`).
    public let reversed: Bool
    /// The charge that funded the transfer; `nil` when it was funded from the available balance.
    public let sourceTransaction: ExpandableID?
    /// The type of the funds' source: `card`, `fpx` or `bank_account`. May be absent.
    public let sourceType: String?
    /// `transfer_group`: the platform's label tying an order's charges and transfers together.
    public let transferGroup: String?

    // MARK: Reconciliation

    /// The connected account's id, if any.
    public var destinationAccountID: String? { destination?.id }

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case amount
        case amountReversed = "amount_reversed"
        case balanceTransaction = "balance_transaction"
        case created
        case currency
        case description
        case destination
        case destinationPayment = "destination_payment"
        case livemode
        case metadata
        case reversals
        case reversed
        case sourceTransaction = "source_transaction"
        case sourceType = "source_type"
        case transferGroup = "transfer_group"
    }
}
