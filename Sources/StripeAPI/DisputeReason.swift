import ReconCore

/// A dispute's `reason` (https://docs.stripe.com/api/disputes/object#dispute_object-reason). Stripe types it as a
/// plain string with documented values; open.
public struct DisputeReason: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    public static let bankCannotProcess = DisputeReason(rawValue: "bank_cannot_process")
    public static let checkReturned = DisputeReason(rawValue: "check_returned")
    public static let creditNotProcessed = DisputeReason(rawValue: "credit_not_processed")
    public static let customerInitiated = DisputeReason(rawValue: "customer_initiated")
    public static let debitNotAuthorized = DisputeReason(rawValue: "debit_not_authorized")
    public static let duplicate = DisputeReason(rawValue: "duplicate")
    public static let fraudulent = DisputeReason(rawValue: "fraudulent")
    public static let general = DisputeReason(rawValue: "general")
    public static let incorrectAccountDetails = DisputeReason(rawValue: "incorrect_account_details")
    public static let insufficientFunds = DisputeReason(rawValue: "insufficient_funds")
    public static let noncompliant = DisputeReason(rawValue: "noncompliant")
    public static let productNotReceived = DisputeReason(rawValue: "product_not_received")
    public static let productUnacceptable = DisputeReason(rawValue: "product_unacceptable")
    public static let subscriptionCanceled = DisputeReason(rawValue: "subscription_canceled")
    public static let unrecognized = DisputeReason(rawValue: "unrecognized")

    /// The fifteen documented values.
    public static let knownValues: [DisputeReason] = [
        bankCannotProcess, checkReturned, creditNotProcessed, customerInitiated, debitNotAuthorized, duplicate,
        fraudulent, general, incorrectAccountDetails, insufficientFunds, noncompliant, productNotReceived,
        productUnacceptable, subscriptionCanceled, unrecognized,
    ]
}
