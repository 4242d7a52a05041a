/// A refund of an application fee (`fr_…`). See https://docs.stripe.com/api/fee_refunds/object.
public struct FeeRefundFacts: ObjectFacts, Hashable {
    public static var kind: ObjectKind { .feeRefund }

    public var id: String
    public var feeID: String
    public var created: Int64
    public var currency: Currency
    public var amount: Int64
    public var balanceTransactionID: String?

    public init(
        id: String, feeID: String, created: Int64, currency: Currency, amount: Int64, balanceTransactionID: String?
    ) {
        self.id = id
        self.feeID = feeID
        self.created = created
        self.currency = currency
        self.amount = amount
        self.balanceTransactionID = balanceTransactionID
    }
}
