import ReconCore

/// An application fee (`fee_…`) the platform collected from a connected account:
/// https://docs.stripe.com/api/application_fees/object.
///
/// For a destination charge, ``charge`` is the connected account's payment (`py_…`) while
/// ``originatingTransaction`` is the platform's charge (`ch_…`); join from the platform charge through
/// `Charge.applicationFee` or ``originatingTransaction``.
public struct ApplicationFee: StripeObject {
    /// `"application_fee"`.
    public static let objectType = "application_fee"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<ApplicationFee>
    /// The application fee's id.
    public let id: String
    /// The connected account the fee was collected from.
    public let account: ExpandableID
    /// The fee, in minor units of ``currency``.
    public let amount: Int64
    /// The amount refunded so far (cumulative).
    public let amountRefunded: Int64
    /// The Connect application that collected the fee. Required by Stripe, but optional here: connect-recon
    /// does not use it and will not reject a fee over it.
    public let application: ExpandableID?
    /// The fee's balance transaction on the platform, not including refunds.
    public let balanceTransaction: ExpandableID?
    /// The charge the fee was taken from: for a destination charge, the connected account's payment `py_…`.
    public let charge: ExpandableID
    /// When the fee was created, in Unix seconds.
    public let created: Int64
    /// The fee's currency (the connected account's settlement currency).
    public let currency: Currency
    /// What the fee was collected on; `nil` when absent (older API versions) or `null`.
    public let feeSource: FeeSource?
    /// `true` in live mode, `false` in test mode.
    public let livemode: Bool
    /// The platform's charge that caused the fee, for destination charges.
    public let originatingTransaction: ExpandableID?
    /// Whether the fee was fully refunded.
    public let refunded: Bool
    /// The fee's refunds: at most the 10 most recent; page the rest when ``StripeList/hasMore``.
    public let refunds: StripeList<FeeRefund>

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case account
        case amount
        case amountRefunded = "amount_refunded"
        case application
        case balanceTransaction = "balance_transaction"
        case charge
        case created
        case currency
        case feeSource = "fee_source"
        case livemode
        case originatingTransaction = "originating_transaction"
        case refunded
        case refunds
    }
}
