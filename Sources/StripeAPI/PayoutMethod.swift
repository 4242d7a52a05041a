import ReconCore

/// A payout's `method` (https://docs.stripe.com/api/payouts/object#payout_object-method). Open.
public struct PayoutMethod: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// The usual payout, arriving in days.
    public static let standard = PayoutMethod(rawValue: "standard")
    /// An Instant Payout, arriving in minutes.
    public static let instant = PayoutMethod(rawValue: "instant")

    /// The two documented values.
    public static let knownValues: [PayoutMethod] = [standard, instant]
}
