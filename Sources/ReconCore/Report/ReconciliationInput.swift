/// What the reconciler reads: the facts of a range and of every object it refers to, as the history holds
/// them. No network, no database, no clock: `asOf` is the moment the run treats as now.
public struct ReconciliationInput: Sendable {
    /// `[from, to)` in Unix seconds: which objects are "created in the range".
    public var from: Int64
    public var to: Int64
    /// The run's "now", for the skipped-transfer grace period.
    public var asOf: Int64
    /// Charges younger than this at `asOf` are not yet skipped transfers.
    public var skippedTransferGrace: Int64

    /// The range's objects and everything they refer to (any creation time).
    public var charges: [ChargeFacts]
    public var paymentIntents: [PaymentIntentFacts]
    public var transfers: [TransferFacts]
    public var transferReversals: [TransferReversalFacts]
    public var applicationFees: [ApplicationFeeFacts]
    public var feeRefunds: [FeeRefundFacts]
    public var refunds: [RefundFacts]
    public var disputes: [DisputeFacts]
    public var balanceTransactions: [BalanceTransactionFacts]
    /// Payouts: those created in the range are reported on (automatic ones only).
    public var payouts: [PayoutFacts] = []
    /// What `?payout=` listed for the payouts: each link's balance transaction is in `balanceTransactions`.
    public var payoutTransactions: [PayoutTransactionLink] = []
    /// Referenced objects Stripe answered 404 for: (kind, id).
    public var missingObjects: [(kind: ObjectKind, id: String)]
    /// The range's ledger, added up by the history instead of handed over transaction by transaction: one row per
    /// currency, ledger balance type and reporting category, each once, none of whose totals overflowed.
    public var ledgerTotals: [LedgerRow] = []
    /// The charges of the look-back window before the range that are still pending, per currency (one part holds
    /// them: the ledger's).
    public var pendingCharges: [PendingChargeTotal] = []
    /// The objects of the look-back window judged as late outcomes (SPEC §4: their outcome arrived since the history
    /// last held them; they get findings, not `platform_fees` or `payouts` rows). When the input is the whole range
    /// (`judged == nil`), the rules judge these beside the range's objects; a part names them in `judged`.
    public var lateOutcomes = JudgedObjects()
    /// When the input is one part of a range: the objects this part reports on. `nil`: the input is the whole
    /// range, and every object created in it is reported on.
    public var judged: JudgedObjects?

    public init(
        from: Int64, to: Int64, asOf: Int64, skippedTransferGrace: Int64, charges: [ChargeFacts] = [],
        paymentIntents: [PaymentIntentFacts] = [], transfers: [TransferFacts] = [],
        transferReversals: [TransferReversalFacts] = [], applicationFees: [ApplicationFeeFacts] = [],
        feeRefunds: [FeeRefundFacts] = [], refunds: [RefundFacts] = [], disputes: [DisputeFacts] = [],
        balanceTransactions: [BalanceTransactionFacts] = [], payouts: [PayoutFacts] = [],
        payoutTransactions: [PayoutTransactionLink] = [], missingObjects: [(kind: ObjectKind, id: String)] = [],
        judged: JudgedObjects? = nil
    ) {
        self.from = from
        self.to = to
        self.asOf = asOf
        self.skippedTransferGrace = skippedTransferGrace
        self.charges = charges
        self.paymentIntents = paymentIntents
        self.transfers = transfers
        self.transferReversals = transferReversals
        self.applicationFees = applicationFees
        self.feeRefunds = feeRefunds
        self.refunds = refunds
        self.disputes = disputes
        self.balanceTransactions = balanceTransactions
        self.payouts = payouts
        self.payoutTransactions = payoutTransactions
        self.missingObjects = missingObjects
        self.judged = judged
    }

    /// How many facts the input holds.
    public var objectCount: Int {
        charges.count + paymentIntents.count + transfers.count + transferReversals.count + applicationFees.count
            + feeRefunds.count + refunds.count + disputes.count + balanceTransactions.count + payouts.count
    }

    /// How many late outcomes the input judges: objects it judges that were created before the range.
    public var lateOutcomeCount: Int {
        guard let judged else {
            return lateOutcomes.charges.count + lateOutcomes.refunds.count + lateOutcomes.disputes.count
                + lateOutcomes.payouts.count
        }
        func count<Facts: ObjectFacts>(_ facts: [Facts], _ ids: Set<String>) -> Int {
            ids.isEmpty ? 0 : facts.count { $0.created < from && ids.contains($0.id) }
        }
        return count(charges, judged.charges) + count(refunds, judged.refunds) + count(disputes, judged.disputes)
            + count(payouts, judged.payouts)
    }

    /// Whether the input holds nothing but balance transactions, or the ledger's totals: a ledger part.
    /// (Its pending charges are totals, not facts.)
    public var isLedgerOnly: Bool {
        charges.isEmpty && paymentIntents.isEmpty && transfers.isEmpty && transferReversals.isEmpty
            && applicationFees.isEmpty && feeRefunds.isEmpty && refunds.isEmpty && disputes.isEmpty && payouts.isEmpty
    }
}

/// The objects one part of a range reports on (see ``ReconciliationInput/judged``).
///
/// A range too large to hold at once is reconciled in parts: each part holds the objects it reports on plus
/// everything they refer to (its context), and every object created in the range is judged in exactly one
/// part. Objects of the context are looked up, never reported on, so an object two parts both need is read
/// twice but counted once.
public struct JudgedObjects: Sendable, Equatable {
    /// Charges created in the range: their `platform_fees` row, skipped transfer and checks; or, as late outcomes
    /// (``ReconciliationInput/lateOutcomes``, a late part), charges of earlier days: their findings only. So for
    /// refunds, disputes and payouts.
    public var charges: Set<String>
    /// Transfers, application fees, refunds and disputes created in the range: their checks and findings.
    public var transfers: Set<String>
    public var applicationFees: Set<String>
    public var refunds: Set<String>
    public var disputes: Set<String>
    /// Balance transactions created in the range: the ledger.
    public var balanceTransactions: Set<String>
    /// Payouts created in the range: their `payouts` and `payout_transactions` rows and their findings.
    public var payouts: Set<String>
    /// Payouts whose paid-out balance transactions are too many for one part: this part holds some of them (by
    /// creation time, then id) and later parts the rest; the payout is judged (in `payouts`) in the part holding
    /// its last ones.
    public var payoutsContinued: Set<String> = []
    /// Whether this part reports the input's `missingObjects`.
    public var missingObjects: Bool

    public init(
        charges: Set<String> = [], transfers: Set<String> = [], applicationFees: Set<String> = [],
        refunds: Set<String> = [], disputes: Set<String> = [], balanceTransactions: Set<String> = [],
        payouts: Set<String> = [], missingObjects: Bool = false
    ) {
        self.charges = charges
        self.transfers = transfers
        self.applicationFees = applicationFees
        self.refunds = refunds
        self.disputes = disputes
        self.balanceTransactions = balanceTransactions
        self.payouts = payouts
        self.missingObjects = missingObjects
    }
}
