import ReconCore

/// What the generator means to create for one charge. Most plans are drawn at random; a fixed list of plans
/// (``ChargePlan/guaranteed()``) puts every docs/RULES.md situation in any world of a few hundred charges.
struct ChargePlan {
    enum Outcome { case succeeded, pending, failed }
    /// The plan's deliberate inconsistencies, one per exception kind, drawn with the random plans' rare shapes.
    /// ``sourceTransactionOnly`` is no inconsistency any more (docs/RULES.md: a separately transferred charge) but
    /// keeps its place in the draw, so random worlds keep their values: a plain charge and a transfer, hours later,
    /// that names it as `source_transaction` with no `transfer_group`.
    enum Anomaly {
        case none, feeMissing, feeMismatch, transferAmountMismatch, transferCurrencyMismatch
        case transferDestinationMismatch, sourceTransactionOnly, missingChargeBT, missingTransferBT, missingFeeBT
    }
    enum Recovery { case none, full, partial }
    /// Which connected account a destination charge goes to, by the currency it settles in.
    enum Account {
        /// Any account, drawn at random.
        case any
        /// An account that settles in the charge's currency (no cross-border fee).
        case domestic
        /// An account that settles in this currency.
        case settlesIn(WorldCurrency)
    }

    /// How much of the authorisation was captured (docs/RULES.md, "Partial and multiple captures"); the per mille are
    /// of the amount, rounded to the currency's granularity.
    enum Capture {
        /// Captured whole (`amount_captured == amount`).
        case full
        /// Captured for less, the way integrations on API versions before `2025-03-31.basil` see it: Stripe refunded
        /// the uncaptured remainder at capture time (a Refund with `reason` null, counted in `amount_refunded`, whose
        /// balance transaction is a `refund` with `reporting_category` `partial_capture_reversal`).
        case legacyPartial(perMille: Int64)
        /// Captured for less, with no refund of the remainder (newer API versions).
        case partial(perMille: Int64)
        /// A multicapture still open: `captured: false`, `amount_captured` what was captured so far, whose balance
        /// transaction, transfer and fee already exist.
        case multicaptureInProgress(perMille: Int64)
        /// Never captured, the authorisation expired: `captured: false`, `amount_captured: 0`, a Refund of the whole
        /// amount with `reason: expired_uncaptured_charge` (and no balance transaction), no balance transaction,
        /// transfer or fee.
        case expired
    }

    struct Refund {
        /// Share of the charge amount in per mille; 1000 refunds whatever is left.
        var perMille: Int64
        var reverseTransfer: Bool
        var refundApplicationFee: Bool
        /// Seconds after the charge settled (or after the previous refund).
        var delay: ClosedRange<Int64> = 600...(5 * 86_400)
        /// Seconds from a refund that left the application fee alone to the platform refunding the fee's share
        /// separately (`POST /v1/application_fees/{id}/refunds`); `nil` when it never does.
        var feeRefundDelay: ClosedRange<Int64>?
        /// The refund fails hours or days later (the card expired): only for the charge's last refund, one that
        /// leaves the application fee alone.
        var fails = false
        /// Seconds from the refund to its failure.
        var failureDelay: ClosedRange<Int64> = 21_600...(3 * 86_400)
        /// The refund is `pending` until it fails (else `succeeded`, as card refunds that fail later show).
        var pendingUntilFailure = false
        /// The scenario the refund shows once it failed, naming the refund.
        var tag: SandboxScenario?
        /// A refund made without `reverse_transfer` that the platform recovers by hand later
        /// (`POST /v1/transfers/{id}/reversals`: a reversal that names no refund): this many per mille of the
        /// account's proportional share, this many seconds after the refund; `nil` when it never does.
        var recoveredByHand: (perMille: Int64, delay: ClosedRange<Int64>)?
    }

    struct Dispute {
        var status: WorldDisputeStatus
        var recovery: Recovery = .none
        var repaid: Bool = false
        /// Seconds from the charge (or its last refund, or the previous dispute) to the dispute.
        var delay: ClosedRange<Int64> = 43_200...(8 * 86_400)
        /// Seconds from a won dispute to the reinstatement of its funds.
        var decision: ClosedRange<Int64> = (3 * 86_400)...(10 * 86_400)
        /// Seconds from the dispute to the transfer reversal that recovers its funds from the connected account.
        var recoveryDelay: ClosedRange<Int64> = 3_600...(2 * 86_400)
        /// The status a won dispute shows until its decision (`under_review` when `nil`); for a lost one, the status
        /// it shows until it is lost (`nil`: lost from the start).
        var beforeDecision: WorldDisputeStatus?
        /// An inquiry (`warning_under_review`) first that escalates into this chargeback this many seconds later,
        /// when its funds are withdrawn; `nil` for a dispute that is a chargeback from the start.
        var escalation: ClosedRange<Int64>?
        /// The scenario the dispute shows, naming the dispute.
        var tag: SandboxScenario?
    }

    /// A separately transferred charge (docs/RULES.md, Stripe's "Separate charges and transfers"): no destination; the
    /// platform pays connected accounts with transfers it creates itself, tied to the charge by a `transfer_group`
    /// and/or `source_transaction`, and recovers refunds and disputes by reversing them by hand (refunds never
    /// `reverse_transfer` them).
    struct Separate {
        enum Grouping {
            /// The charge and its PaymentIntent carry a `transfer_group` of their own.
            case ownGroup
            /// A `transfer_group` of its own that the next charge planned with ``joinsOpenGroup`` shares.
            case opensSharedGroup
            /// The `transfer_group` the last ``opensSharedGroup`` charge opened (its own when there is none).
            case joinsOpenGroup
            /// No `transfer_group`: the transfers name the charge as `source_transaction` only.
            case sourceOnly
        }

        struct Transfer {
            /// Per mille of what was captured, rounded to the currency's granularity.
            var perMille: Int64
            /// Seconds after the charge settled (after midnight following the charge's day when `afterChargeDay`).
            var delay: ClosedRange<Int64> = 60...3_600
            var afterChargeDay = false
            /// Names the charge as `source_transaction` (always for a ``Grouping/sourceOnly`` charge).
            var namesSource = true
            /// The platform reverses this per mille of the transfer by hand (no refund, no dispute), this many seconds
            /// after it: a courier who did not deliver.
            var handReversal: (perMille: Int64, delay: ClosedRange<Int64>)?
            /// A transfer in another currency than the charge's, settling in that currency's platform settlement
            /// currency.
            var currency: WorldCurrency?
            /// The charge's refunds and disputes do not wait for this transfer (they follow the others): a seller
            /// paid days later whatever happened to the order meanwhile.
            var madeWhateverHappened = false
        }

        var grouping = Grouping.ownGroup
        var transfers: [Transfer]
        /// After each refund the platform reverses this per mille of the accounts' share of it
        /// (`round_half_up(refund × transferred ÷ captured)`) from the transfers, this many seconds later; `nil` when
        /// it never does.
        var refundRecovery: (perMille: Int64, delay: ClosedRange<Int64>)?
        /// The scenarios the charge shows once its events fit in the world (group scenarios only).
        var tags: [SandboxScenario] = []
    }

    var method = PaymentMethodKind.card
    /// For an account debit (``PaymentMethodKind/accountDebit``): the earlier charge (by index) whose refund or dispute
    /// it gives back, and how its metadata names it; `nil`: a debit of a random account naming nothing.
    var debitOf: WorldDebitLink?
    var outcome = Outcome.succeeded
    /// Seconds from a bank debit to its settlement; `nil` for the usual 1 to 4 days.
    var settleDelay: ClosedRange<Int64>?
    /// How the destination charge pays the platform; `nil` for a plain charge (no destination).
    var style: FeeStyle?
    var account = Account.domestic
    /// The charge is made `on_behalf_of` its destination account: it settles in the account's currency when that
    /// is another than the charge's (an account settling in the charge's own currency changes nothing: the charge
    /// settles as the platform's would).
    var onBehalfOf = false
    /// An application fee set by Stripe's platform pricing tools: the fee exists, but neither the PaymentIntent nor
    /// the charge names an `application_fee_amount`.
    var pricingToolFee = false
    /// The refunds' and dispute withdrawals' balance transactions draw on the `refund_and_dispute_prefunding`
    /// balance.
    var prefunding = false
    /// A charge of the world's last hour under asynchronous capture whose balance transaction, transfer and
    /// application fee Stripe has not created yet (its `transfer_data` and `application_fee_amount` are set).
    var partsPending = false
    var skipped = false
    var capture = Capture.full
    var currency: WorldCurrency?
    var amount: Int64?
    /// The application fee (application-fee style) or the retained part (transfer-amount style).
    var retained: Int64?
    var refunds: [Refund] = []
    var disputes: [Dispute] = []
    var anomaly = Anomaly.none
    /// Separately transferred (``style`` is then `nil`); `nil` for any other charge.
    var separate: Separate?
    var tags: [SandboxScenario] = []
}
