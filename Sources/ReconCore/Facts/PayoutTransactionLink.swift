/// One item of `GET /v1/balance_transactions?payout=po_…`: a balance transaction an automatic payout lists.
///
/// A balance transaction names no payout itself, so this link is the only record of which payout paid it out.
/// Stripe lists the payout's own `payout` balance transaction among them (first, being the newest).
public struct PayoutTransactionLink: Sendable, Hashable {
    public var payoutID: String
    public var balanceTransactionID: String

    public init(payoutID: String, balanceTransactionID: String) {
        self.payoutID = payoutID
        self.balanceTransactionID = balanceTransactionID
    }
}
