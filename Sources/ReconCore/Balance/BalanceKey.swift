/// One balance of the platform's Stripe account: a settlement currency and a balance type (`payments`,
/// `refund_and_dispute_prefunding`, `issuing`, …). The roll-forward is kept per key (docs/RULES.md, "The books
/// close").
public struct BalanceKey: Sendable, Hashable, Codable, Comparable {
    public var currency: Currency
    public var balanceType: BalanceType

    public init(currency: Currency, balanceType: BalanceType) {
        self.currency = currency
        self.balanceType = balanceType
    }

    /// By currency, then the balance type's name.
    public static func < (lhs: BalanceKey, rhs: BalanceKey) -> Bool {
        (lhs.currency.rawValue, lhs.balanceType.rawValue) < (rhs.currency.rawValue, rhs.balanceType.rawValue)
    }
}
