import ReconCore

/// A charge (`ch_…`; on a connected account, its payment `py_…`): https://docs.stripe.com/api/charges/object.
///
/// For a destination charge, the platform's charge names the connected account in ``transferData``, the
/// transfer in ``transfer`` and, in the "application fee" style, the fee in ``applicationFee``.
public struct Charge: StripeObject {
    /// `"charge"`.
    public static let objectType = "charge"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<Charge>
    /// The charge's id.
    public let id: String
    /// The amount intended to be collected, in minor units of ``currency``.
    public let amount: Int64
    /// The amount captured; less than ``amount`` after a partial capture.
    public let amountCaptured: Int64
    /// The amount refunded so far (cumulative).
    public let amountRefunded: Int64
    /// The application fee collected on this charge, if any. `null` for a `transfer_data[amount]` charge, and
    /// for a while under asynchronous capture.
    public let applicationFee: ExpandableID?
    /// The application fee requested when the charge was created.
    public let applicationFeeAmount: Int64?
    /// The balance transaction of the charge itself, not of its refunds or disputes; `null` until an
    /// asynchronous capture completes.
    public let balanceTransaction: ExpandableID?
    /// Whether the charge was captured.
    public let captured: Bool
    /// When the charge was created, in Unix seconds.
    public let created: Int64
    /// The currency of all the charge's amounts.
    public let currency: Currency
    /// The charge's description.
    public let description: String?
    /// Whether the charge has been disputed.
    public let disputed: Bool
    /// The balance transaction that reversed the charge's funds when a delayed payment failed.
    public let failureBalanceTransaction: ExpandableID?
    /// Why the payment failed, as a code.
    public let failureCode: String?
    /// Why the payment failed, in words.
    public let failureMessage: String?
    /// `true` in live mode, `false` in test mode.
    public let livemode: Bool
    /// The platform's key-value metadata; empty when Stripe sent none or `null`.
    @StripeMetadata public var metadata: [String: String]
    /// The account the charge was made on behalf of (`on_behalf_of`), if any.
    public let onBehalfOf: ExpandableID?
    /// Whether the charge succeeded or was authorized for later capture.
    public let paid: Bool
    /// The payment method's details, of which only the `type` is read (``PaymentMethodDetails``).
    public let paymentMethodDetails: PaymentMethodDetails?
    /// The PaymentIntent that created the charge.
    public let paymentIntent: ExpandableID?
    /// Whether the charge was fully refunded (a partial refund leaves it `false`).
    public let refunded: Bool
    /// The charge's refunds: present only when requested with `expand[]=refunds` (not sent by default since
    /// API version 2022-11-15).
    public let refunds: StripeList<Refund>?
    /// On an account debit, the connected account debited (``ChargeSource``); on a legacy charge, its card.
    public let source: ChargeSource?
    /// On a connected account's payment, the transfer that created it; on an account debit, the transfer Stripe made
    /// on the debited account.
    public let sourceTransfer: ExpandableID?
    /// Whether the payment succeeded, is pending or failed.
    public let status: ChargeStatus
    /// The transfer to the destination account. May be absent from the JSON altogether, or `null` for a while
    /// after an asynchronous capture; `nil` in both cases.
    public let transfer: ExpandableID?
    /// The destination account and amount of a destination charge; `null` for an ordinary charge and for a
    /// destination charge whose transfer Stripe skipped.
    public let transferData: TransferData?
    /// The transfer group (`group_pi_…` for destination charges made through a PaymentIntent).
    public let transferGroup: String?

    // MARK: Reconciliation

    /// The connected account named by ``transferData``, if any.
    public var destinationAccountID: String? { transferData?.destinationAccountID }

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case amount
        case amountCaptured = "amount_captured"
        case amountRefunded = "amount_refunded"
        case applicationFee = "application_fee"
        case applicationFeeAmount = "application_fee_amount"
        case balanceTransaction = "balance_transaction"
        case captured
        case created
        case currency
        case description
        case disputed
        case failureBalanceTransaction = "failure_balance_transaction"
        case failureCode = "failure_code"
        case failureMessage = "failure_message"
        case livemode
        case metadata
        case onBehalfOf = "on_behalf_of"
        case paid
        case paymentIntent = "payment_intent"
        case paymentMethodDetails = "payment_method_details"
        case refunded
        case refunds
        case source
        case sourceTransfer = "source_transfer"
        case status
        case transfer
        case transferData = "transfer_data"
        case transferGroup = "transfer_group"
    }
}
