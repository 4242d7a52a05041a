/// The charges of one currency created in the look-back window before the range that are not final yet (still
/// `pending`): the Summary's `pending_charges` and `pending_amount`.
public struct PendingChargeTotal: Sendable, Hashable {
    public var currency: Currency
    public var count: Int
    /// The sum of their `amount`, minor units of `currency`.
    public var amount: Int64

    public init(currency: Currency, count: Int, amount: Int64) {
        self.currency = currency
        self.count = count
        self.amount = amount
    }
}
