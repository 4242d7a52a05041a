import ReconCore

/// A PaymentIntent (`pi_…`): https://docs.stripe.com/api/payment_intents/object.
///
/// It records what the platform *asked for* — the destination, the transfer amount, the application fee — even
/// when the charge no longer carries it (a skipped transfer has `charge.transfer_data == null`).
public struct PaymentIntent: StripeObject {
    /// `"payment_intent"`.
    public static let objectType = "payment_intent"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<PaymentIntent>
    /// The PaymentIntent's id.
    public let id: String
    /// The amount intended to be collected, in minor units of ``currency``.
    public let amount: Int64
    /// The amount received so far. Optional in Stripe's API description, so `nil` when absent.
    public let amountReceived: Int64?
    /// The application fee the platform asked for, if any.
    public let applicationFeeAmount: Int64?
    /// How the funds are captured.
    public let captureMethod: CaptureMethod
    /// When the PaymentIntent was created, in Unix seconds.
    public let created: Int64
    /// The currency of all the PaymentIntent's amounts.
    public let currency: Currency
    /// The most recent charge attempt.
    public let latestCharge: ExpandableID?
    /// `true` in live mode, `false` in test mode.
    public let livemode: Bool
    /// The platform's key-value metadata; empty when Stripe sent none or `null`.
    @StripeMetadata public var metadata: [String: String]
    /// The account the payment is made on behalf of, if any.
    public let onBehalfOf: ExpandableID?
    /// Where the PaymentIntent is in its lifecycle.
    public let status: PaymentIntentStatus
    /// The destination and transfer amount the platform asked for; non-`nil` means a destination charge was
    /// intended.
    public let transferData: TransferData?
    /// `transfer_group`: the platform's label tying an order's charges and transfers together.
    public let transferGroup: String?

    // MARK: Reconciliation

    /// The connected account the platform intended to pay, if any.
    public var destinationAccountID: String? { transferData?.destinationAccountID }

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case amount
        case amountReceived = "amount_received"
        case applicationFeeAmount = "application_fee_amount"
        case captureMethod = "capture_method"
        case created
        case currency
        case latestCharge = "latest_charge"
        case livemode
        case metadata
        case onBehalfOf = "on_behalf_of"
        case status
        case transferData = "transfer_data"
        case transferGroup = "transfer_group"
    }
}
