/// A balance transaction's `balance_type`, the balance it affects
/// (https://docs.stripe.com/api/balance_transactions/object). Added to the API after 2023; open.
public struct BalanceType: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// The Issuing balance.
    public static let issuing = BalanceType(rawValue: "issuing")
    /// The payments balance.
    public static let payments = BalanceType(rawValue: "payments")
    /// The balance prefunding refunds and disputes.
    public static let refundAndDisputePrefunding = BalanceType(rawValue: "refund_and_dispute_prefunding")
    /// Funds reserved by Stripe for risk.
    public static let riskReserved = BalanceType(rawValue: "risk_reserved")

    /// The four values of API version 2026-07-29.
    public static let knownValues: [BalanceType] = [
        issuing, payments, refundAndDisputePrefunding, riskReserved,
    ]
}
