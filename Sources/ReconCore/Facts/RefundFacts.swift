/// A refund (`re_…`) of a platform charge. See https://docs.stripe.com/api/refunds/object.
public struct RefundFacts: ObjectFacts, Hashable {
    public static var kind: ObjectKind { .refund }

    public var id: String
    public var chargeID: String?
    public var created: Int64
    public var currency: Currency
    public var amount: Int64
    /// `nil` when Stripe sent none.
    public var status: RefundStatus?
    /// The transfer reversal it caused (`reverse_transfer`); `nil` when the connected account kept the funds.
    public var transferReversalID: String?
    public var balanceTransactionID: String?
    /// The `refund_failure` balance transaction that returned the funds to the platform when the refund failed.
    public var failureBalanceTransactionID: String?
    /// Why it failed (`expired_or_canceled_card`, `lost_or_stolen_card`, …), when it did.
    public var failureReason: String?
    /// Why it was made (`requested_by_customer`, …; `expired_uncaptured_charge` for an authorisation Stripe
    /// released), when Stripe says.
    public var reason: RefundReason?

    public init(
        id: String, chargeID: String?, created: Int64, currency: Currency, amount: Int64, status: RefundStatus?,
        transferReversalID: String?, balanceTransactionID: String?, failureBalanceTransactionID: String? = nil,
        failureReason: String? = nil, reason: RefundReason? = nil
    ) {
        self.id = id
        self.chargeID = chargeID
        self.created = created
        self.currency = currency
        self.amount = amount
        self.status = status
        self.transferReversalID = transferReversalID
        self.balanceTransactionID = balanceTransactionID
        self.failureBalanceTransactionID = failureBalanceTransactionID
        self.failureReason = failureReason
        self.reason = reason
    }

    /// Whether the refund failed (`status: failed`): no money reached the customer.
    public var hasFailed: Bool { status == .failed }

    /// Whether the refund moved money, so that its charge's `amount_refunded` counts it: not failed or canceled
    /// (``RefundStatus/movedNoMoney``); a refund without a status (older API versions) did.
    public var movedMoney: Bool { status.map { !RefundStatus.movedNoMoney.contains($0) } ?? true }

    /// Whether the refund gave back the uncaptured remainder of an authorisation (docs/RULES.md, "Partial and multiple
    /// captures"), money that was never captured, not a refund to the customer: integrations on API versions before
    /// `2025-03-31.basil` got one for a partial capture (its balance transaction's `reporting_category` is
    /// `partial_capture_reversal`) or for an authorisation Stripe released (`reason: expired_uncaptured_charge`).
    /// Such a refund is left out of every refund sum and finding.
    public func isUncapturedRemainder(balanceTransaction: BalanceTransactionFacts?) -> Bool {
        reason == .expiredUncapturedCharge || balanceTransaction?.reportingCategory == .partialCaptureReversal
    }
}
