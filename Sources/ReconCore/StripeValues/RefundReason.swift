/// A refund's `reason` (https://docs.stripe.com/api/refunds/object#refund_object-reason). Open.
public struct RefundReason: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// A duplicate payment.
    public static let duplicate = RefundReason(rawValue: "duplicate")
    /// Stripe released an uncaptured charge that expired.
    public static let expiredUncapturedCharge = RefundReason(rawValue: "expired_uncaptured_charge")
    /// A fraudulent payment.
    public static let fraudulent = RefundReason(rawValue: "fraudulent")
    /// The customer asked for it.
    public static let requestedByCustomer = RefundReason(rawValue: "requested_by_customer")

    /// The four values in Stripe's API description.
    public static let knownValues: [RefundReason] = [
        duplicate, expiredUncapturedCharge, fraudulent, requestedByCustomer,
    ]
}
