/// A payout's `reconciliation_status` (https://docs.stripe.com/api/payouts/object#payout_object-reconciliation_status):
/// whether Stripe has finished listing the balance transactions the payout paid out. Open.
public struct PayoutReconciliationStatus: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// `?payout=` lists every balance transaction the payout paid out.
    public static let completed = PayoutReconciliationStatus(rawValue: "completed")
    /// Stripe is still reconciling the payout: `?payout=` lists only part of what it paid out.
    public static let inProgress = PayoutReconciliationStatus(rawValue: "in_progress")
    /// The payout lists nothing (a manual payout).
    public static let notApplicable = PayoutReconciliationStatus(rawValue: "not_applicable")

    /// The three values in Stripe's API description.
    public static let knownValues: [PayoutReconciliationStatus] = [completed, inProgress, notApplicable]
}
