/// A transfer reversal (`trr_…`): money pulled back from the connected account.
/// See https://docs.stripe.com/api/transfer_reversals/object.
public struct TransferReversalFacts: ObjectFacts, Hashable {
    public static var kind: ObjectKind { .transferReversal }

    public var id: String
    public var transferID: String
    public var created: Int64
    public var currency: Currency
    public var amount: Int64
    /// The refund that caused it; `nil` for a manual reversal (for example a dispute recovery).
    public var sourceRefundID: String?
    public var balanceTransactionID: String?
    /// `metadata[dispute_id]`, when the platform tagged a recovery reversal with its dispute.
    public var disputeIDMetadata: String?

    public init(
        id: String, transferID: String, created: Int64, currency: Currency, amount: Int64, sourceRefundID: String?,
        balanceTransactionID: String?, disputeIDMetadata: String?
    ) {
        self.id = id
        self.transferID = transferID
        self.created = created
        self.currency = currency
        self.amount = amount
        self.sourceRefundID = sourceRefundID
        self.balanceTransactionID = balanceTransactionID
        self.disputeIDMetadata = disputeIDMetadata
    }
}
