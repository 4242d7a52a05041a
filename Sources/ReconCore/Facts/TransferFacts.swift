/// What the reconciler needs to know about a transfer (`tr_…`) to a connected account.
/// See https://docs.stripe.com/api/transfers/object.
public struct TransferFacts: ObjectFacts, Hashable {
    public static var kind: ObjectKind { .transfer }

    public var id: String
    public var created: Int64
    public var currency: Currency
    public var amount: Int64
    public var amountReversed: Int64
    /// The connected account it went to (`destination`).
    public var destinationAccountID: String?
    /// The charge that funded it; `nil` for a transfer from the available balance.
    public var sourceTransactionID: String?
    public var balanceTransactionID: String?
    public var transferGroup: String?
    /// `metadata[dispute_id]`: set on a transfer that pays back funds recovered for a dispute the platform won.
    public var disputeIDMetadata: String?
    public var livemode: Bool

    public init(
        id: String, created: Int64, currency: Currency, amount: Int64, amountReversed: Int64,
        destinationAccountID: String?,
        sourceTransactionID: String?, balanceTransactionID: String?, transferGroup: String?,
        disputeIDMetadata: String?, livemode: Bool
    ) {
        self.id = id
        self.created = created
        self.currency = currency
        self.amount = amount
        self.amountReversed = amountReversed
        self.destinationAccountID = destinationAccountID
        self.sourceTransactionID = sourceTransactionID
        self.balanceTransactionID = balanceTransactionID
        self.transferGroup = transferGroup
        self.disputeIDMetadata = disputeIDMetadata
        self.livemode = livemode
    }
}
