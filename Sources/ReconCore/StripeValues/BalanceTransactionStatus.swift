/// A balance transaction's `status` (https://docs.stripe.com/api/balance_transactions/object). Open.
public struct BalanceTransactionStatus: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// The funds are available in the balance.
    public static let available = BalanceTransactionStatus(rawValue: "available")
    /// The funds become available on `available_on`.
    public static let pending = BalanceTransactionStatus(rawValue: "pending")

    /// The two documented values.
    public static let knownValues: [BalanceTransactionStatus] = [
        available, pending,
    ]
}
