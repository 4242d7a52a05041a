/// A loss the platform covered for a connected account (docs/RULES.md, "The platform's other money"): when an account
/// stays negative, Stripe collects from the platform (`connect_collection_transfer`); the transaction's source,
/// expanded, names the account in its `destination`.
public struct CollectionTransfer: Sendable, Hashable {
    /// The `connect_collection_transfer` balance transaction (`txn_…`).
    public var balanceTransactionID: String
    public var created: Int64
    public var currency: Currency
    /// The transaction's `net`: negative, what left the platform's balance.
    public var net: Int64
    /// The account Stripe collected for; `nil` when the source could not say (not read yet, or it named none).
    public var account: String?
    /// Whether the transaction's source was read (expanded) at all: `false` in a history extracted before it was.
    public var sourceRead: Bool

    public init(
        balanceTransactionID: String, created: Int64, currency: Currency, net: Int64, account: String?,
        sourceRead: Bool
    ) {
        self.balanceTransactionID = balanceTransactionID
        self.created = created
        self.currency = currency
        self.net = net
        self.account = account
        self.sourceRead = sourceRead
    }

    /// The loss: what the platform paid, `−net`; `nil` when `net` is `Int64.min`.
    public var loss: Int64? { net == .min ? nil : -net }
}
