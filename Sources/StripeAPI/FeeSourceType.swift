import ReconCore

/// The `type` of an application fee's `fee_source` (https://docs.stripe.com/api/application_fees/object). Open.
public struct FeeSourceType: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// The fee was collected on a charge.
    public static let charge = FeeSourceType(rawValue: "charge")
    /// The fee was collected on a payout.
    public static let payout = FeeSourceType(rawValue: "payout")

    /// The two values of API version 2026-07-29.
    public static let knownValues: [FeeSourceType] = [
        charge, payout,
    ]
}
