/// What the reconciler needs to know about a PaymentIntent (`pi_…`): what the platform *intended*.
/// See https://docs.stripe.com/api/payment_intents/object.
public struct PaymentIntentFacts: ObjectFacts, Hashable {
    public static var kind: ObjectKind { .paymentIntent }

    public var id: String
    public var created: Int64
    public var currency: Currency
    public var amount: Int64
    public var applicationFeeAmount: Int64?
    /// `transfer_data.destination`: non-nil means a destination charge was intended.
    public var destinationAccountID: String?
    /// `transfer_data.amount`.
    public var transferDataAmount: Int64?
    public var status: PaymentIntentStatus
    public var latestChargeID: String?
    public var livemode: Bool
    /// `transfer_group`, which a charge it makes carries too; `nil` when the platform set none.
    public var transferGroup: String?

    public init(
        id: String, created: Int64, currency: Currency, amount: Int64, applicationFeeAmount: Int64?,
        destinationAccountID: String?, transferDataAmount: Int64?, status: PaymentIntentStatus, latestChargeID: String?,
        livemode: Bool, transferGroup: String? = nil
    ) {
        self.id = id
        self.created = created
        self.currency = currency
        self.amount = amount
        self.applicationFeeAmount = applicationFeeAmount
        self.destinationAccountID = destinationAccountID
        self.transferDataAmount = transferDataAmount
        self.status = status
        self.latestChargeID = latestChargeID
        self.livemode = livemode
        self.transferGroup = transferGroup
    }
}
