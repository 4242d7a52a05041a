import ReconCore

/// A PaymentIntent's `capture_method`
/// (https://docs.stripe.com/api/payment_intents/object#payment_intent_object-capture_method). Open.
public struct CaptureMethod: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// Captured when the customer authorizes the payment.
    public static let automatic = CaptureMethod(rawValue: "automatic")
    /// Captured asynchronously (the current default): the charge's `balance_transaction`, `transfer`
    /// and `application_fee` are `null` at first and filled in later.
    public static let automaticAsync = CaptureMethod(rawValue: "automatic_async")
    /// Authorized now, captured later by the platform.
    public static let manual = CaptureMethod(rawValue: "manual")

    /// The three values in Stripe's API description.
    public static let knownValues: [CaptureMethod] = [
        automatic, automaticAsync, manual,
    ]
}
