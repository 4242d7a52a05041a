import ReconCore

/// The `type` of a Stripe error body (https://docs.stripe.com/api/errors). Open: a new type still decodes.
public struct StripeErrorType: StripeEnum {
    /// The raw string, for example `invalid_request_error`.
    public let rawValue: String

    /// Wraps any error type string.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A problem on Stripe's side; usually worth retrying.
    public static let apiError = StripeErrorType(rawValue: "api_error")
    /// A card could not be charged.
    public static let cardError = StripeErrorType(rawValue: "card_error")
    /// An `Idempotency-Key` was reused with different parameters.
    public static let idempotencyError = StripeErrorType(rawValue: "idempotency_error")
    /// The request had invalid parameters (including an unknown id).
    public static let invalidRequestError = StripeErrorType(rawValue: "invalid_request_error")

    /// The four types in Stripe's API description.
    public static let knownValues: [StripeErrorType] = [apiError, cardError, idempotencyError, invalidRequestError]
}
