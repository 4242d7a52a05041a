/// What the reconciler needs to know about a platform charge (`ch_…`), in minor units of `currency`.
/// See https://docs.stripe.com/api/charges/object.
public struct ChargeFacts: ObjectFacts, Hashable {
    public static var kind: ObjectKind { .charge }

    public var id: String
    /// Unix seconds.
    public var created: Int64
    public var currency: Currency
    public var amount: Int64
    public var amountCaptured: Int64
    public var amountRefunded: Int64
    public var status: ChargeStatus
    public var captured: Bool
    public var paymentIntentID: String?
    /// `charge.transfer`: the transfer to the destination account, absent when none was made.
    public var transferID: String?
    public var applicationFeeID: String?
    /// The fee the platform asked for (`application_fee_amount`).
    public var applicationFeeAmount: Int64?
    /// `transfer_data.destination`; `nil` when the charge has no `transfer_data` (a skipped transfer looks so).
    public var destinationAccountID: String?
    /// `transfer_data.amount`; `nil` means the full amount is transferred.
    public var transferDataAmount: Int64?
    public var balanceTransactionID: String?
    public var livemode: Bool
    /// `transfer_group`: the platform's label tying an order's charges and the transfers it makes by hand
    /// (docs/RULES.md, "Separate charges and transfers"); `nil` when it set none.
    public var transferGroup: String?
    /// `disputed`: whether the charge has been disputed. Its disputes are listed by charge when the history holds
    /// none of them (docs/EXTRACTION.md).
    public var disputed: Bool
    /// `on_behalf_of`: the account the charge was made on behalf of (the merchant of record), `nil` for none. Stripe
    /// asks platforms to recover such a charge's dispute only once it is lost (docs/RULES.md, "The platform's other
    /// money").
    public var onBehalfOf: String?
    /// `payment_method_details.type`: `card`, `us_bank_account`, …; `stripe_account` for an account debit,
    /// `stripe_balance` for an account paying the platform from its balance (``isAccountDebit``); `nil` when absent,
    /// and in a history written before it was stored for a charge that is neither.
    public var paymentMethodType: String?
    /// `source.id`: on an account debit, the connected account debited (`acct_…`); `nil` when absent, and in a history
    /// written before it was stored for a charge that is no account debit.
    public var sourceID: String?
    /// The platform's `metadata`, kept for an account debit (``isAccountDebit``: its link to what it recovers); empty
    /// for every other charge (no rule reads theirs).
    public var metadata: [String: String]
    /// For an account debit that names nothing itself: the transfer it was made with, read by a follow-up
    /// (``DebitSourceTransfer``); `nil` for every other charge, and until it is read. Not a column of the charge: the
    /// history's account-debit reads fill it.
    public var sourceTransfer: DebitSourceTransfer?
    /// For an account debit: the values its links could take (its and its transfer's metadata values and groups) that
    /// name nothing the history holds, such as a platform's own payment id in `transfer_group`; empty when nobody
    /// looked (the history's account-debit reads do). Such a link neither recovers nor makes the debit another
    /// object's (``linksToHeldObjects(keys:)``).
    public var linksHeldNowhere: Set<String> = []

    public init(
        id: String, created: Int64, currency: Currency, amount: Int64, amountCaptured: Int64, amountRefunded: Int64,
        status: ChargeStatus, captured: Bool, paymentIntentID: String?, transferID: String?, applicationFeeID: String?,
        applicationFeeAmount: Int64?, destinationAccountID: String?, transferDataAmount: Int64?,
        balanceTransactionID: String?, livemode: Bool, transferGroup: String? = nil, disputed: Bool = false,
        onBehalfOf: String? = nil, paymentMethodType: String? = nil, sourceID: String? = nil,
        metadata: [String: String] = [:], sourceTransfer: DebitSourceTransfer? = nil
    ) {
        self.id = id
        self.created = created
        self.currency = currency
        self.amount = amount
        self.amountCaptured = amountCaptured
        self.amountRefunded = amountRefunded
        self.status = status
        self.captured = captured
        self.paymentIntentID = paymentIntentID
        self.transferID = transferID
        self.applicationFeeID = applicationFeeID
        self.applicationFeeAmount = applicationFeeAmount
        self.destinationAccountID = destinationAccountID
        self.transferDataAmount = transferDataAmount
        self.balanceTransactionID = balanceTransactionID
        self.livemode = livemode
        self.transferGroup = transferGroup
        self.disputed = disputed
        self.onBehalfOf = onBehalfOf
        self.paymentMethodType = paymentMethodType
        self.sourceID = sourceID
        self.metadata = metadata
        self.sourceTransfer = sourceTransfer
    }

    /// `status == "succeeded"` and `amount_captured > 0`: the charges docs/RULES.md reasons about. Not `captured`: a
    /// multicapture charge keeps `captured: false` until its final capture, while its balance transaction, transfer
    /// and application fee already exist.
    ///
    /// Inlinable, so that the rules ask it of a charge where it is without copying the charge.
    @inlinable public var isSucceededAndCaptured: Bool { status == .succeeded && amountCaptured > 0 }
}
