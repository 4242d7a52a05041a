/// A charge's `status` (https://docs.stripe.com/api/charges/object#charge_object-status). Open: a value Stripe
/// adds later still decodes.
public struct ChargeStatus: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// The payment succeeded.
    public static let succeeded = ChargeStatus(rawValue: "succeeded")
    /// The payment has not settled yet (asynchronous payment methods).
    public static let pending = ChargeStatus(rawValue: "pending")
    /// The payment failed.
    public static let failed = ChargeStatus(rawValue: "failed")

    /// The three values in Stripe's API description.
    public static let knownValues: [ChargeStatus] = [
        succeeded, pending, failed,
    ]
}
