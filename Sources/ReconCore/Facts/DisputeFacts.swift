/// A dispute (`dp_…` / `du_…`) on a platform charge. See https://docs.stripe.com/api/disputes/object.
public struct DisputeFacts: ObjectFacts, Hashable {
    public static var kind: ObjectKind { .dispute }

    public var id: String
    public var chargeID: String
    public var created: Int64
    public var currency: Currency
    public var amount: Int64
    public var status: DisputeStatus
    /// The balance transactions that withdrew and reinstated the funds (zero, one or two).
    public var balanceTransactionIDs: [String]

    public init(
        id: String, chargeID: String, created: Int64, currency: Currency, amount: Int64, status: DisputeStatus,
        balanceTransactionIDs: [String]
    ) {
        self.id = id
        self.chargeID = chargeID
        self.created = created
        self.currency = currency
        self.amount = amount
        self.status = status
        self.balanceTransactionIDs = balanceTransactionIDs
    }
}
