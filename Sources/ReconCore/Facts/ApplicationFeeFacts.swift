/// An application fee (`fee_…`) the platform collected from a connected account.
/// See https://docs.stripe.com/api/application_fees/object.
public struct ApplicationFeeFacts: ObjectFacts, Hashable {
    public static var kind: ObjectKind { .applicationFee }

    public var id: String
    public var created: Int64
    public var currency: Currency
    public var amount: Int64
    public var amountRefunded: Int64
    /// The platform charge (`originating_transaction`); the fee's own `charge` is the connected account's `py_…`.
    public var originatingChargeID: String?
    /// The connected account charged.
    public var accountID: String?
    public var balanceTransactionID: String?
    public var livemode: Bool

    public init(
        id: String, created: Int64, currency: Currency, amount: Int64, amountRefunded: Int64,
        originatingChargeID: String?, accountID: String?, balanceTransactionID: String?, livemode: Bool
    ) {
        self.id = id
        self.created = created
        self.currency = currency
        self.amount = amount
        self.amountRefunded = amountRefunded
        self.originatingChargeID = originatingChargeID
        self.accountID = accountID
        self.balanceTransactionID = balanceTransactionID
        self.livemode = livemode
    }
}
