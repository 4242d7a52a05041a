import ReconCore

/// The input's objects by id and by the links the rules follow. When an id occurs twice in the input, the first
/// occurrence wins, so a duplicated object is never counted twice.
struct FactIndex {
    let from: Int64
    let to: Int64
    /// What this part reports on; `nil`: everything created in the range, and `lateOutcomes`.
    let judged: JudgedObjects?
    /// The late outcomes a whole-range input judges (a part names them in `judged`).
    let lateOutcomes: JudgedObjects

    let charges: [ChargeFacts]
    let transfers: [TransferFacts]
    let applicationFees: [ApplicationFeeFacts]
    let refunds: [RefundFacts]
    let disputes: [DisputeFacts]
    private(set) var balanceTransactions: [BalanceTransactionFacts]
    let payouts: [PayoutFacts]

    let chargeByID: FactLookup<ChargeFacts>
    let paymentIntentByID: FactLookup<PaymentIntentFacts>
    let transferByID: FactLookup<TransferFacts>
    let feeByID: FactLookup<ApplicationFeeFacts>
    let balanceTransactionByID: FactLookup<BalanceTransactionFacts>
    let reversalByID: FactLookup<TransferReversalFacts>
    /// `application_fee.originating_transaction` → fee: the join Stripe documents next to `charge.application_fee`.
    let feeByOriginatingCharge: [String: ApplicationFeeFacts]
    /// Children, each list in creation order (ties by id).
    let reversalsByTransfer: [String: [TransferReversalFacts]]
    let feeRefundsByFee: [String: [FeeRefundFacts]]
    let refundsByCharge: [String: [RefundFacts]]
    let disputesByCharge: [String: [DisputeFacts]]
    /// Source → the positions in ``balanceTransactions`` of its transactions (positions: a copy of each fact retains
    /// each of its strings).
    let balanceTransactionsBySource: [String: [Int]]
    /// Transfers tagged `metadata[dispute_id]`: repayments of funds recovered for a dispute the platform won.
    let repaymentsByDispute: [String: [TransferFacts]]
    /// Payout → the ids of the balance transactions `?payout=` listed for it, each once, in the order the part lists
    /// them.
    let transactionsByPayout: [String: [String]]
    /// The transfer groups the input holds (docs/RULES.md, "Separately transferred charges"): each charge's group, and
    /// each group's charges and transfers, in creation order (ties by id).
    let transferGroups: TransferGroupIndex

    init(_ input: ReconciliationInput) {
        guard input.isLedgerOnly, !input.balanceTransactions.isEmpty else {
            self.init(all: input)
            return
        }
        // The ledger's part: nothing refers to its balance transactions, so the lookups stay empty.
        var withoutLookups = input
        withoutLookups.balanceTransactions = []
        self.init(all: withoutLookups)
        balanceTransactions = FactLookup(input.balanceTransactions).unique
    }

    private init(all input: ReconciliationInput) {
        from = input.from
        to = input.to
        judged = input.judged
        lateOutcomes = input.lateOutcomes
        // The lookups by id keep the first of duplicated ids; the lists are filtered only when there are any.
        chargeByID = FactLookup(input.charges)
        transferByID = FactLookup(input.transfers)
        feeByID = FactLookup(input.applicationFees)
        balanceTransactionByID = FactLookup(input.balanceTransactions)
        paymentIntentByID = FactLookup(input.paymentIntents)
        charges = chargeByID.unique
        transfers = transferByID.unique
        applicationFees = feeByID.unique
        balanceTransactions = balanceTransactionByID.unique
        refunds = FactLookup(input.refunds).unique
        disputes = FactLookup(input.disputes).unique
        payouts = FactLookup(input.payouts).unique
        // Each link once, in the order listed: sorting every link by both ids first took longer than the payouts'
        // rules, and what the rules read from a list they order themselves (``Payouts``).
        var listed: [String: [String]] = [:]
        listed.reserveCapacity(input.payouts.count)
        var seen = Set<PayoutTransactionLink>(minimumCapacity: input.payoutTransactions.count)
        for link in input.payoutTransactions where seen.insert(link).inserted {
            listed[link.payoutID, default: []].append(link.balanceTransactionID)
        }
        transactionsByPayout = listed
        let reversals = FactLookup(input.transferReversals).unique.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
        reversalByID = FactLookup(reversals)
        let feeRefunds = FactLookup(input.feeRefunds).unique.sorted { ($0.created, $0.id) < ($1.created, $1.id) }

        // The earliest fee of each charge: its position compared, so that no fee is copied but the one kept.
        // Each dictionary built here is sized first: growing one rehashes every id it holds, each through `Hasher`.
        var byOrigin: [String: Int] = [:]
        byOrigin.reserveCapacity(applicationFees.count)
        for position in applicationFees.indices {
            guard let charge = applicationFees[position].originatingChargeID else { continue }
            if let kept = byOrigin[charge],
                (applicationFees[kept].created, applicationFees[kept].id)
                    <= (applicationFees[position].created, applicationFees[position].id)
            {
                continue
            }
            byOrigin[charge] = position
        }
        feeByOriginatingCharge = byOrigin.mapValues { [applicationFees] in applicationFees[$0] }
        reversalsByTransfer = Dictionary(grouping: reversals, by: \.transferID)
        feeRefundsByFee = Dictionary(grouping: feeRefunds, by: \.feeID)
        refundsByCharge = Dictionary(
            grouping: refunds.filter { $0.chargeID != nil }.sorted { ($0.created, $0.id) < ($1.created, $1.id) },
            by: { $0.chargeID ?? "" })
        disputesByCharge = Dictionary(
            grouping: disputes.sorted { ($0.created, $0.id) < ($1.created, $1.id) }, by: \.chargeID)
        // One pass, each transaction's position kept (filtering first, then grouping, copied each fact twice).
        var bySource: [String: [Int]] = [:]
        bySource.reserveCapacity(balanceTransactions.count)
        for position in balanceTransactions.indices {
            guard let source = balanceTransactions[position].sourceID else { continue }
            bySource[source, default: []].append(position)
        }
        balanceTransactionsBySource = bySource
        repaymentsByDispute = Dictionary(
            grouping: transfers.filter { $0.disputeIDMetadata != nil }.sorted {
                ($0.created, $0.id) < ($1.created, $1.id)
            },
            by: { $0.disputeIDMetadata ?? "" })
        transferGroups = TransferGroupIndex(
            charges: charges, transfers: transfers,
            intent: { [paymentIntentByID] charge in
                charge.paymentIntentID.flatMap { paymentIntentByID[$0] }
            })
    }

    // MARK: Questions the rules ask

    /// An index of nothing.
    static let empty = FactIndex(ReconciliationInput(from: 0, to: 0, asOf: 0, skippedTransferGrace: 0))

    func isInRange(_ created: Int64) -> Bool { from <= created && created < to }

    /// Whether this part holds some of `payout`'s transactions and later parts the rest.
    func continues(_ payout: PayoutFacts) -> Bool {
        judged?.payoutsContinued.contains(payout.id) ?? false
    }

    /// Whether `object` is judged by this part: created in the range, or a late outcome (docs/RULES.md, "Late outcomes
    /// are judged in the run that sees them"). A part names exactly the objects it judges; the whole range judges its
    /// own objects and its late outcomes.
    func judges<Object: KindObject>(_ object: Object) -> Bool {
        judges(Object.kind, id: object.id, created: object.created)
    }

    /// ``judges(_:)`` of the fact `object` points to, read where it is: only its id and creation time are read
    /// (handing `object.pointee` to the generic copied the whole fact, retaining each of its strings).
    func judges<Object: KindObject>(_ object: UnsafePointer<Object>) -> Bool {
        judges(Object.kind, id: object.pointee.id, created: object.pointee.created)
    }

    /// The one definition behind both ``judges(_:)``: the object of `kind` with `id`, created at `created`.
    private func judges(_ kind: ObjectKind, id: String, created: Int64) -> Bool {
        if let judged { return judged.contains(kind, id: id) }
        return isInRange(created) || lateOutcomes.contains(kind, id: id)
    }

    func paymentIntent(of charge: ChargeFacts) -> PaymentIntentFacts? {
        charge.paymentIntentID.flatMap { paymentIntentByID[$0] }
    }

    /// docs/RULES.md: `transfer_data.destination`, or `transfer`, or the PaymentIntent's `transfer_data.destination`.
    func isDestinationCharge(_ charge: ChargeFacts) -> Bool {
        charge.isDestinationCharge(intent: paymentIntent(of: charge))
    }

    func transfer(of charge: ChargeFacts) -> TransferFacts? { charge.transferID.flatMap { transferByID[$0] } }

    /// `charge.application_fee`, else the fee whose `originating_transaction` is the charge (under asynchronous
    /// capture the charge can briefly show no fee id while the fee already exists).
    func applicationFee(of charge: ChargeFacts) -> ApplicationFeeFacts? {
        charge.applicationFeeID.flatMap { feeByID[$0] } ?? feeByOriginatingCharge[charge.id]
    }

    /// The charge's refunds that moved money and gave back no uncaptured remainder
    /// (``RefundFacts/isUncapturedRemainder(balanceTransaction:)``): what docs/RULES.md counts as refunded, in creation
    /// order.
    func customerRefunds(of charge: ChargeFacts) -> [RefundFacts] {
        (refundsByCharge[charge.id] ?? []).filter { $0.movedMoney && !isUncapturedRemainder($0) }
    }

    /// Whether `refund` gave back an uncaptured remainder, as its balance transaction in the input says.
    private func isUncapturedRemainder(_ refund: RefundFacts) -> Bool {
        refund.isUncapturedRemainder(
            balanceTransaction: refund.balanceTransactionID.flatMap { balanceTransactionByID[$0] })
    }

    /// docs/RULES.md's `c.amount_refunded`: Stripe's, less the refunds of the uncaptured remainder (which Stripe
    /// counts); `nil` when it does not fit in 64 bits.
    func amountRefunded(_ charge: ChargeFacts) -> Int64? {
        var remainder: Int64 = 0
        for refund in refundsByCharge[charge.id] ?? [] where refund.movedMoney && isUncapturedRemainder(refund) {
            guard let sum = Checked.add(remainder, refund.amount) else { return nil }
            remainder = sum
        }
        return Checked.subtract(charge.amountRefunded, remainder)
    }

    func reversals(of transfer: TransferFacts?) -> [TransferReversalFacts] {
        transfer.flatMap { reversalsByTransfer[$0.id] } ?? []
    }

    /// Whether `id` names a balance transaction the input lacks (`nil` names none: nothing is missing from the input).
    func isAbsent(balanceTransaction id: String?) -> Bool {
        guard let id else { return false }
        return !balanceTransactionByID.contains(id)
    }
}
