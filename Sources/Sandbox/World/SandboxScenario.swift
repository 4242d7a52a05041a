/// The situations of docs/RULES.md the world is built to contain. ``SandboxWorld/ids(for:)`` names the objects
/// that show each one (charge ids, except ``bonusTransfer`` which names transfers, the payout scenarios which
/// name payouts, ``issuingTransaction`` which names balance transactions, ``lateFailedRefund`` which names refunds
/// and ``lateDisputeWon`` and ``lateDisputeLost`` which name disputes), so tests can find them. A scenario is what
/// the object shows by the end the world was generated up to, also in a world served as of an earlier moment.
public enum SandboxScenario: String, CaseIterable, Sendable, Codable {
    // Fee styles and plain charges
    case applicationFee = "application_fee"
    case transferAmount = "transfer_amount"
    case fullTransfer = "full_transfer"
    case plainCharge = "plain_charge"
    // Refunds
    case partialRefundReversed = "partial_refund_reversed"
    case partialRefundNotReversed = "partial_refund_not_reversed"
    case fullRefundReversed = "full_refund_reversed"
    case fullRefundNotReversed = "full_refund_not_reversed"
    case applicationFeeRefunded = "application_fee_refunded"
    /// A refund left the application fee alone; the platform refunded the fee's share separately, later.
    case applicationFeeRefundedLater = "application_fee_refunded_later"
    case refundAcrossBoundary = "refund_across_boundary"
    /// A refund made without `reverse_transfer`, whose share the platform reversed by hand later (a reversal naming
    /// no refund): recovered, no finding.
    case refundRecoveredByHand = "refund_recovered_by_hand"
    /// The same, reversed by hand for only half the account's share: `refund_not_recovered`.
    case refundRecoveredShort = "refund_recovered_short"
    case manyReversals = "many_reversals"
    // Disputes
    case disputeWarningNeedsResponse = "dispute_warning_needs_response"
    case disputeWarningUnderReview = "dispute_warning_under_review"
    case disputeWarningClosed = "dispute_warning_closed"
    case disputeNeedsResponse = "dispute_needs_response"
    case disputeUnderReview = "dispute_under_review"
    case disputeLost = "dispute_lost"
    case disputeWon = "dispute_won"
    case disputePrevented = "dispute_prevented"
    case disputeRecovered = "dispute_recovered"
    case disputePartiallyRecovered = "dispute_partially_recovered"
    case disputeNotRecovered = "dispute_not_recovered"
    case disputeWonRepaid = "dispute_won_repaid"
    case disputeWonNotRepaid = "dispute_won_not_repaid"
    case multipleDisputes = "multiple_disputes"
    case disputeAfterPartialRefund = "dispute_after_partial_refund"
    case disputeAcrossBoundary = "dispute_across_boundary"
    // Asynchronous payments
    case skippedTransfer = "skipped_transfer"
    case pendingAsync = "pending_async"
    case failedAsync = "failed_async"
    case youngCharge = "young_charge"
    /// A succeeded, captured charge of the world's last hour under asynchronous capture whose balance transaction,
    /// transfer and application fee Stripe has not created yet: `balance_transaction`, `transfer` and
    /// `application_fee` are null while `transfer_data` (and, for the application-fee style, `application_fee_amount`)
    /// are set.
    case youngChargeMissingParts = "young_charge_missing_parts"
    case transferAfterChargeDay = "transfer_after_charge_day"
    // Partial and multiple captures (docs/RULES.md)
    /// A card charge captured for less than authorised (60 %), as API versions before `2025-03-31.basil` show it:
    /// `captured: true`, `amount_captured` the captured part, a Refund of the uncaptured remainder made at capture
    /// time (`reason` null, counted in `amount_refunded`, its balance transaction a `refund` with
    /// `reporting_category` `partial_capture_reversal`); its transfer and application fee capped at what was
    /// captured.
    case legacyPartialCapture = "legacy_partial_capture"
    /// An authorisation never captured that expired: `status: succeeded`, `captured: false`, `amount_captured: 0`, a
    /// Refund of the whole amount with `reason: expired_uncaptured_charge`; no balance transaction, transfer or fee.
    /// Not a charge docs/RULES.md counts.
    case expiredAuthorization = "expired_authorization"
    /// A bank debit whose PaymentIntent asked for a transfer, captured for less than authorised, whose transfer Stripe
    /// skipped: the amount owed is capped at `amount_captured`.
    case partiallyCapturedSkippedTransfer = "partially_captured_skipped_transfer"
    /// A multicapture in progress: `captured: false`, `0 < amount_captured < amount`, its balance transaction,
    /// transfer (of what was captured so far) and application fee already there.
    case multicaptureInProgress = "multicapture_in_progress"
    // Currencies and transfers
    case zeroDecimalCurrency = "zero_decimal_currency"
    case threeDecimalCurrency = "three_decimal_currency"
    case crossCurrency = "cross_currency"
    // Separate charges and transfers (docs/RULES.md "Separately transferred charges"): charges with no destination
    // whose platform pays connected accounts with transfers it creates itself (charge ids, but ``bonusTransfer``).
    /// A transfer with no `source_transaction` and no `transfer_group`: a bonus or top-up from the platform's balance
    /// (transfer ids). A group of no charge: no row, no finding.
    case bonusTransfer = "bonus_transfer"
    /// 100.00 usd in a `transfer_group` (charge and PaymentIntent), paid out by two transfers to two accounts: 60.00
    /// minutes later naming the charge as `source_transaction`, and 25.00 with the group only, created the day after
    /// the charge's day and 10.00 of it reversed by hand later: platform take 25.00.
    case transferGroupSplit = "transfer_group_split"
    /// Two charges sharing one `transfer_group`, each with its transfer: one group row of two charges.
    case transferGroupTwoCharges = "transfer_group_two_charges"
    /// A charge with no `transfer_group` and a transfer naming it as `source_transaction` with none either: its
    /// group is the charge's id.
    case sourceTransactionOnly = "source_transaction_only"
    /// A group charge refunded (without `reverse_transfer`) whose accounts' share the platform reversed by hand
    /// from its transfers afterwards, exactly: no finding.
    case groupRefundRecovered = "group_refund_recovered"
    /// The same with a hand reversal short of the share: `refund_not_recovered` about the group.
    case groupRefundNotRecovered = "group_refund_not_recovered"
    /// A lost dispute on a group charge the platform recovered by reversing the group's transfers by hand after it.
    case groupDisputeReversed = "group_dispute_reversed"
    /// A dispute on a group charge whose funds are withdrawn (`needs_response`) with no reversal after it: an
    /// unreversed dispute.
    case groupDisputeNotReversed = "group_dispute_not_reversed"
    /// A group whose charge is in eur (settling in usd) and whose transfer is in usd: its figures come from the
    /// balance transactions, in usd.
    case transferGroupCrossCurrency = "transfer_group_cross_currency"
    // Money across borders
    /// An application fee in its destination account's settlement currency, not the charge's (a cross-border
    /// destination charge): the fee's amount is the `application_fee_amount` converted, its balance transaction in
    /// its own currency.
    case crossBorderFee = "cross_border_fee"
    /// A cross-border application fee partly or wholly refunded (fee refunds in the fee's currency).
    case crossBorderFeeRefunded = "cross_border_fee_refunded"
    /// A cross-border application fee set by Stripe's platform pricing tools: neither the charge nor its
    /// PaymentIntent names an `application_fee_amount` to convert it back with.
    case feeCurrencyUnconvertible = "fee_currency_unconvertible"
    /// A charge made `on_behalf_of` its destination account: it settles in the account's currency (its balance
    /// transactions, its transfer's, refunds' and disputes' are in that currency, with an `exchange_rate` when it
    /// differs from the charge's).
    case onBehalfOf = "on_behalf_of"
    // Failed refunds and balances
    /// A refund that reversed the transfer, then failed (`status: failed`, a `refund_failure` balance transaction):
    /// the reversal stays, the charge's `amount_refunded` no longer counts the refund.
    case failedRefundReversed = "failed_refund_reversed"
    /// A refund that left the transfer alone, then failed.
    case failedRefundNotReversed = "failed_refund_not_reversed"
    /// A charge whose refunds' or dispute withdrawals' balance transactions draw on the
    /// `refund_and_dispute_prefunding` balance (never paid out automatically).
    case refundAndDisputePrefunding = "refund_and_dispute_prefunding"
    /// An `issuing_transaction` balance transaction of the `issuing` balance, with no source (balance transaction
    /// ids).
    case issuingTransaction = "issuing_transaction"
    // Automatic payouts (payout ids)
    /// A payout that failed (`account_closed`): its funds came back with a `payout_failure` balance transaction.
    case payoutFailed = "payout_failed"
    /// A payout whose amount differs from the sum of its balance transactions' `net` (a deliberate inconsistency).
    case payoutMismatch = "payout_mismatch"
    /// A payout created less than a day and a half before the world's end: `reconciliation_status: in_progress`, and
    /// `?payout=` lists only the older half of what it paid out.
    case payoutInProgress = "payout_in_progress"
    /// A manual Instant Payout of 50.00 usd at 15:00 of every seventh day: `automatic` false, `reconciliation_status`
    /// `not_applicable`, no transactions attributed; the next automatic payout pays out its own transaction.
    case manualPayout = "manual_payout"
    // Late outcomes: objects created in the day before the world's last day whose state changes during its last
    // day, between ``SandboxWorld/earlierMoment`` and the world's end (worlds of 200 charges and three days or more;
    // the payout, five days or more).
    /// A bank-debit destination charge `pending` at the earlier moment that succeeded before the end with its
    /// transfer skipped: the charge's `transfer_data` and `transfer` are null, its PaymentIntent keeps
    /// `transfer_data.destination` (charge ids).
    case lateSkippedTransfer = "late_skipped_transfer"
    /// A bank-debit destination charge `pending` at the earlier moment that succeeded before the end, its transfer and
    /// application fee made at settlement (charge ids).
    case lateSucceeded = "late_succeeded"
    /// A bank-debit destination charge `pending` at the earlier moment that failed before the end: `status: failed`,
    /// `failure_balance_transaction`, a `payment_failure_refund` balance transaction; no transfer was ever made
    /// (charge ids).
    case lateFailedCharge = "late_failed_charge"
    /// A refund that reversed the transfer, `pending` at the earlier moment, `failed` by the end (its
    /// `refund_failure` balance transaction created at failure; the reversal stays) (refund ids).
    case lateFailedRefund = "late_failed_refund"
    /// A dispute on a destination charge, `needs_response` (funds withdrawn, not recovered) at the earlier moment,
    /// `won` by the end (its `dispute_reversal` reinstatement created at the decision) (dispute ids).
    case lateDisputeWon = "late_dispute_won"
    /// A dispute that was an inquiry (`warning_under_review`, nothing withdrawn) at the earlier moment, escalated
    /// after it (its withdrawal created then) and was `lost` by the end, not recovered (dispute ids).
    case lateDisputeLost = "late_dispute_lost"
    /// An automatic payout `paid` at the earlier moment (its arrival date passed) that is `failed` by the end
    /// (`account_closed`, a `payout_failure` balance transaction created at failure) (payout ids).
    case latePayoutFailed = "late_payout_failed"
    // Money moved by hand, across time, in worlds made with `movesByHand` (``movedByHand``): charges of the day before
    // the world's last day whose money the platform moves by hand during its last day (charge ids).
    /// A destination charge refunded 50.00 of 100.00 without `reverse_transfer`; the platform reverses the account's
    /// 40.00 share by hand during the last day.
    case lateRefundRecoveredByHand = "late_refund_recovered_by_hand"
    /// The same, reversed 38.00: 2.00 short.
    case lateRefundRecoveredShort = "late_refund_recovered_short"
    /// A transfer group's charge of 100.00 paying 60.00 at once and 25.00 during the last day.
    case lateGroupTransfer = "late_group_transfer"
    /// A transfer group's charge of 100.00 that transferred 85.00, refunded 40.00; the 34.00 share is reversed by hand
    /// during the last day.
    case lateGroupRefundRecovered = "late_group_refund_recovered"
    /// A transfer group's charge of 100.00 disputed (`needs_response`) on its day, whose one transfer of 50.00 the
    /// platform makes during the last day all the same.
    case lateGroupDisputedThenPaid = "late_group_disputed_then_paid"
    /// A destination charge's dispute, `under_review` throughout, whose funds the platform recovers from the connected
    /// account by a hand reversal during the last day.
    case lateDisputeRecoveredByHand = "late_dispute_recovered_by_hand"
    // The platform's other money, in worlds made with `otherMoney` (``otherMoney``).
    /// A dispute on a destination charge made `on_behalf_of` its account, `under_review` at the earlier moment and lost
    /// by the end, not recovered (dispute ids).
    case lateOnBehalfOfDisputeLost = "late_on_behalf_of_dispute_lost"
    /// A destination charge made `on_behalf_of` its account whose dispute needs a response throughout (charge ids).
    case onBehalfOfDisputeOpen = "on_behalf_of_dispute_open"
    /// A 100.00 destination charge refunded 40.00 without `reverse_transfer` on its day, whose seller the platform
    /// debits the 40.00 during the last day, the debit naming the charge (`metadata[charge]`) (charge ids).
    case lateRefundRecoveredByDebit = "late_refund_recovered_by_debit"
    /// The same, the debit naming nothing: it recovers nothing in particular (charge ids).
    case lateRefundDebitedUnlinked = "late_refund_debited_unlinked"
    /// The same, the platform debiting with a transfer on the account that names the charge
    /// (`metadata[stripe_charge_id]`), the debit itself naming nothing (charge ids).
    case lateRefundRecoveredByTransferDebit = "late_refund_recovered_by_transfer_debit"
    /// A 100.00 destination charge disputed (`under_review`) on its day, whose seller the platform debits 100.00
    /// during the last day, naming the dispute (`metadata[dispute]`) (charge ids).
    case lateDisputeRecoveredByDebit = "late_dispute_recovered_by_debit"
    // Deliberate inconsistencies, one family per exception kind
    case applicationFeeMissing = "application_fee_missing"
    case applicationFeeAmountMismatch = "application_fee_amount_mismatch"
    case transferAmountMismatch = "transfer_amount_mismatch"
    case transferCurrencyMismatch = "transfer_currency_mismatch"
    case transferDestinationMismatch = "transfer_destination_mismatch"
    case missingBalanceTransaction = "missing_balance_transaction"
    // The seed's worked examples (docs/RULES.md), with their exact amounts
    /// 10.00 usd with `application_fee_amount` 1.23: DPF 1.23.
    case seedExampleApplicationFee = "seed_example_application_fee"
    /// 10.00 usd with `transfer_data[amount]` 8.77: DPF 1.23, platform net 0.64.
    case seedExampleTransferAmount = "seed_example_transfer_amount"
    /// 10.00 usd, fee 1.23, fully refunded with `reverse_transfer` and `refund_application_fee`: DPF 0.00.
    case seedExampleFullRefundReversed = "seed_example_full_refund_reversed"
    /// 10.00 usd, `transfer_data[amount]` 8.77, fully refunded without `reverse_transfer`: DPF −8.77.
    case seedExampleFullRefundNotReversed = "seed_example_full_refund_not_reversed"
    /// 10.00 usd full transfer, no refunds: DPF 0.00.
    case seedExampleFullTransfer = "seed_example_full_transfer"

    /// The scenarios of money moved by hand, which only a world made with `movesByHand` holds.
    public static let movedByHand: Set<SandboxScenario> = [
        .lateRefundRecoveredByHand, .lateRefundRecoveredShort, .lateGroupTransfer, .lateGroupRefundRecovered,
        .lateGroupDisputedThenPaid, .lateDisputeRecoveredByHand,
    ]

    /// The scenarios of the platform's other money, which only a world made with `otherMoney` holds.
    public static let otherMoney: Set<SandboxScenario> = [
        .lateOnBehalfOfDisputeLost, .onBehalfOfDisputeOpen, .lateRefundRecoveredByDebit, .lateRefundDebitedUnlinked,
        .lateRefundRecoveredByTransferDebit, .lateDisputeRecoveredByDebit,
    ]
}
