import ReconCore

/// The `type` of one of a balance transaction's `fee_details`
/// (https://docs.stripe.com/api/balance_transactions/object#balance_transaction_object-fee_details-type). Open.
public struct FeeDetailType: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// A Connect application fee.
    public static let applicationFee = FeeDetailType(rawValue: "application_fee")
    /// A fee passed through from the payment method.
    public static let paymentMethodPassthroughFee = FeeDetailType(rawValue: "payment_method_passthrough_fee")
    /// Stripe's processing fee (also the dispute fee).
    public static let stripeFee = FeeDetailType(rawValue: "stripe_fee")
    /// Tax on Stripe's fee.
    public static let tax = FeeDetailType(rawValue: "tax")
    public static let withheldTax = FeeDetailType(rawValue: "withheld_tax")

    /// The five values of API version 2026-07-29.
    public static let knownValues: [FeeDetailType] = [
        applicationFee, paymentMethodPassthroughFee, stripeFee, tax, withheldTax,
    ]
}
