/// Which states of an object can still change in a way the rules read (docs/EXTRACTION.md, "Late outcomes"): the
/// objects of the look-back window in any other state are final and never read again. A status this code does not know
/// is not final: reading it again costs little, missing its outcome would cost a finding.
public enum LateOutcomePolicy {
    /// `reconcile.lookback_days`'s default: the longest an asynchronous payment stays pending (docs/RULES.md).
    public static let defaultLookbackDays = 14

    /// A charge is final once it succeeded or failed (a succeeded charge inside the grace period with a part still
    /// missing is not: its transfer, fee or balance transaction is still to come).
    public static let finalChargeStatuses: [ChargeStatus] = [.succeeded, .failed]
    /// A refund is final once it succeeded, failed or was canceled (`pending` and `requires_action` are not).
    public static let finalRefundStatuses: [RefundStatus] = [.succeeded, .failed, .canceled]
    /// A dispute is final once it is decided (`won`, `lost`, `prevented`) or an inquiry closed (`warning_closed`).
    public static let finalDisputeStatuses: [DisputeStatus] = [.warningClosed, .won, .lost, .prevented]
    /// A payout is final once it failed or was canceled, or was `paid` longer ago than ``paidPayoutFailureWindow``;
    /// and only once Stripe finished listing what it paid out (`reconciliation_status: completed`).
    public static let finalPayoutStatuses: [PayoutStatus] = [.paid, .failed, .canceled]

    /// How long after its arrival date a `paid` payout can still fail, in seconds. Stripe's API reference: "The
    /// status changes to paid if the transaction succeeds, or to failed or canceled (within 5 business days). Some
    /// payouts that fail might initially show as paid, then change to failed." Five business days span at most
    /// seven calendar days, nine with a bank holiday on each side: ten days.
    public static let paidPayoutFailureWindow: Int64 = 10 * 86_400
}
