/// A PaymentIntent's `status` (https://docs.stripe.com/api/payment_intents/object#payment_intent_object-status).
/// Open: a value Stripe adds later still decodes.
public struct PaymentIntentStatus: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// Waiting for a payment method, or the last attempt failed.
    public static let requiresPaymentMethod = PaymentIntentStatus(rawValue: "requires_payment_method")
    /// Waiting to be confirmed.
    public static let requiresConfirmation = PaymentIntentStatus(rawValue: "requires_confirmation")
    /// Waiting for the customer (for example 3-D Secure).
    public static let requiresAction = PaymentIntentStatus(rawValue: "requires_action")
    /// The payment is being processed.
    public static let processing = PaymentIntentStatus(rawValue: "processing")
    /// Authorized, waiting for a manual capture.
    public static let requiresCapture = PaymentIntentStatus(rawValue: "requires_capture")
    /// Canceled; no further charge will be made.
    public static let canceled = PaymentIntentStatus(rawValue: "canceled")
    /// The payment succeeded.
    public static let succeeded = PaymentIntentStatus(rawValue: "succeeded")

    /// The seven values in Stripe's API description.
    public static let knownValues: [PaymentIntentStatus] = [
        requiresPaymentMethod, requiresConfirmation, requiresAction, processing, requiresCapture, canceled, succeeded,
    ]
}
