/// A refund's `status` (https://docs.stripe.com/api/refunds/object#refund_object-status). Open.
public struct RefundStatus: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// Not yet completed.
    public static let pending = RefundStatus(rawValue: "pending")
    /// Waiting for the customer (some payment methods).
    public static let requiresAction = RefundStatus(rawValue: "requires_action")
    /// The refund was paid out.
    public static let succeeded = RefundStatus(rawValue: "succeeded")
    /// The refund failed: its amount returns to the platform balance (`failure_balance_transaction`).
    public static let failed = RefundStatus(rawValue: "failed")
    /// Canceled before completion: its amount returns to the platform balance.
    public static let canceled = RefundStatus(rawValue: "canceled")

    /// The five documented values.
    public static let knownValues: [RefundStatus] = [
        pending, requiresAction, succeeded, failed, canceled,
    ]

    /// The statuses of a refund that moved no money: its amount is back on the platform and Stripe no longer counts
    /// it in the charge's `amount_refunded`. Every other status, one this code does not know included, counts.
    public static let movedNoMoney: [RefundStatus] = [failed, canceled]
}
