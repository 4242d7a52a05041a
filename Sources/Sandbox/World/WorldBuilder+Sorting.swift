// Sorting the draft tables by creation time: each table is permuted into (created, draft index) order and every
// reference between tables is rewritten from draft indexes to final ones.

/// Per table: the draft indexes in final order, and the final index of each draft index.
struct TableOrder {
    let order: [Int32]
    let newIndex: [Int32]

    /// The order of a table by (created, draft index); `start` is the world's first second.
    init(_ created: [Int64], start: Int64) {
        var keys = created.enumerated().map { UInt64(UInt32(truncatingIfNeeded: $1 - start)) << 32 | UInt64($0) }
        keys.sort()
        order = keys.map { Int32(truncatingIfNeeded: $0 & 0xFFFF_FFFF) }
        var newIndex = [Int32](repeating: 0, count: created.count)
        for (position, draft) in order.enumerated() { newIndex[Int(draft)] = Int32(position) }
        self.newIndex = newIndex
    }

    /// `values` in final order.
    func permute<T>(_ values: [T]) -> [T] { order.map { values[Int($0)] } }

    /// References to this table rewritten to final indexes (`-1` stays `-1`).
    func remap(_ values: [Int32]) -> [Int32] { values.map { $0 < 0 ? $0 : newIndex[Int($0)] } }
}

/// The orders of every sorted table of one world.
struct WorldOrder {
    let transfers: TableOrder
    let reversals: TableOrder
    let fees: TableOrder
    let feeRefunds: TableOrder
    let refunds: TableOrder
    let disputes: TableOrder
    let balanceTransactions: TableOrder
}

extension WorldBuilder {
    /// Sorts every table, rewrites the references and hands the tables over as the world's storage.
    func finish() -> WorldStorage {
        let o = WorldOrder(
            transfers: TableOrder(transfers.created, start: start),
            reversals: TableOrder(reversals.created, start: start), fees: TableOrder(fees.created, start: start),
            feeRefunds: TableOrder(feeRefunds.created, start: start),
            refunds: TableOrder(refunds.created, start: start), disputes: TableOrder(disputes.created, start: start),
            balanceTransactions: TableOrder(bts.created, start: start))
        let bMap = o.balanceTransactions

        charges.transfer = o.transfers.remap(charges.transfer)
        charges.fee = o.fees.remap(charges.fee)
        charges.balanceTransaction = bMap.remap(charges.balanceTransaction)
        charges.failureBalanceTransaction = bMap.remap(charges.failureBalanceTransaction)

        // Each draft table is released as soon as its sorted copy exists, to keep the peak memory down.
        var t = sortedTransfers(o)
        transfers = TransferTable()
        let v = sortedReversals(o)
        reversals = ReversalTable()
        t.reversals = Adjacency(ownerCount: t.count, owner: v.transfer)
        var f = sortedFees(o)
        fees = FeeTable()
        let fr = sortedFeeRefunds(o)
        feeRefunds = FeeRefundTable()
        f.refunds = Adjacency(ownerCount: f.count, owner: fr.fee)
        let r = sortedRefunds(o)
        refunds = RefundTable()
        let d = sortedDisputes(o)
        disputes = DisputeTable()
        charges.refunds = Adjacency(ownerCount: charges.count, owner: r.charge)
        charges.disputes = Adjacency(ownerCount: charges.count, owner: d.charge)
        let b = sortedBalanceTransactions(o)
        bts = BalanceTransactionTable()

        // Payouts are generated in creation order: only their balance transactions move.
        var p = payoutSchedule.payouts
        p.balanceTransaction = bMap.remap(p.balanceTransaction)
        p.failureBalanceTransaction = bMap.remap(p.failureBalanceTransaction)
        p.transactions = Adjacency(ownerCount: p.count, owner: bMap.permute(payoutSchedule.paidOutBy))
        for payout in payoutSchedule.failed { tag(.payoutFailed, .payout, payout) }
        for payout in payoutSchedule.mismatched { tag(.payoutMismatch, .payout, payout) }
        for payout in payoutSchedule.manual { tag(.manualPayout, .payout, payout) }
        for payout in payoutSchedule.failedLate { tag(.latePayoutFailed, .payout, payout) }
        for payout in 0..<p.count where p.reconciliation[payout] == .inProgress {
            tag(.payoutInProgress, .payout, payout)
        }
        payoutSchedule = PayoutScheduler.Schedule()

        var tags = scenarios
        for (scenario, objects) in tags {
            tags[scenario] = objects.map { object in
                switch object.kind {
                case .transfer: ScenarioObject(kind: .transfer, index: o.transfers.newIndex[Int(object.index)])
                case .balanceTransaction:
                    ScenarioObject(kind: .balanceTransaction, index: bMap.newIndex[Int(object.index)])
                case .refund: ScenarioObject(kind: .refund, index: o.refunds.newIndex[Int(object.index)])
                case .dispute: ScenarioObject(kind: .dispute, index: o.disputes.newIndex[Int(object.index)])
                default: object
                }
            }.sorted { $0.index < $1.index }.uniqued()
        }
        return WorldStorage(
            seed: seed, start: start, end: end, accountCount: accountCount, charges: charges, transfers: t,
            reversals: v, fees: f, feeRefunds: fr, refunds: r, disputes: d, balanceTransactions: b, payouts: p,
            scenarios: tags, groupCount: Int(groupCount))
    }

    private func sortedTransfers(_ o: WorldOrder) -> TransferTable {
        let order = o.transfers
        var t = TransferTable()
        t.created = order.permute(transfers.created)
        t.amount = order.permute(transfers.amount)
        t.currency = order.permute(transfers.currency)
        t.settlement = order.permute(transfers.settlement)
        t.rate = order.permute(transfers.rate)
        t.destination = order.permute(transfers.destination)
        t.sourceCharge = order.permute(transfers.sourceCharge)
        t.group = order.permute(transfers.group)
        t.role = order.permute(transfers.role)
        t.dispute = order.permute(o.disputes.remap(transfers.dispute))
        t.balanceTransaction = order.permute(o.balanceTransactions.remap(transfers.balanceTransaction))
        t.amountReversed = order.permute(transfers.amountReversed)
        return t
    }

    private func sortedReversals(_ o: WorldOrder) -> ReversalTable {
        let order = o.reversals
        var v = ReversalTable()
        v.created = order.permute(reversals.created)
        v.transfer = order.permute(o.transfers.remap(reversals.transfer))
        v.amount = order.permute(reversals.amount)
        v.sourceRefund = order.permute(o.refunds.remap(reversals.sourceRefund))
        v.dispute = order.permute(o.disputes.remap(reversals.dispute))
        v.balanceTransaction = order.permute(o.balanceTransactions.remap(reversals.balanceTransaction))
        return v
    }

    private func sortedFees(_ o: WorldOrder) -> FeeTable {
        let order = o.fees
        var f = FeeTable()
        f.created = order.permute(fees.created)
        f.charge = order.permute(fees.charge)
        f.currency = order.permute(fees.currency)
        f.amount = order.permute(fees.amount)
        f.balanceTransaction = order.permute(o.balanceTransactions.remap(fees.balanceTransaction))
        f.amountRefunded = order.permute(fees.amountRefunded)
        return f
    }

    private func sortedFeeRefunds(_ o: WorldOrder) -> FeeRefundTable {
        let order = o.feeRefunds
        var fr = FeeRefundTable()
        fr.created = order.permute(feeRefunds.created)
        fr.fee = order.permute(o.fees.remap(feeRefunds.fee))
        fr.amount = order.permute(feeRefunds.amount)
        fr.balanceTransaction = order.permute(o.balanceTransactions.remap(feeRefunds.balanceTransaction))
        return fr
    }

    private func sortedRefunds(_ o: WorldOrder) -> RefundTable {
        let order = o.refunds
        var r = RefundTable()
        r.created = order.permute(refunds.created)
        r.charge = order.permute(refunds.charge)
        r.amount = order.permute(refunds.amount)
        r.balanceTransaction = order.permute(o.balanceTransactions.remap(refunds.balanceTransaction))
        r.transferReversal = order.permute(o.reversals.remap(refunds.transferReversal))
        r.failureBalanceTransaction = order.permute(o.balanceTransactions.remap(refunds.failureBalanceTransaction))
        r.failureReason = order.permute(refunds.failureReason)
        r.pendingUntilFailure = order.permute(refunds.pendingUntilFailure)
        r.reason = order.permute(refunds.reason)
        r.uncapturedRemainder = order.permute(refunds.uncapturedRemainder)
        return r
    }

    private func sortedDisputes(_ o: WorldOrder) -> DisputeTable {
        let order = o.disputes
        let bMap = o.balanceTransactions
        var d = DisputeTable()
        d.created = order.permute(disputes.created)
        d.charge = order.permute(disputes.charge)
        d.amount = order.permute(disputes.amount)
        d.status = order.permute(disputes.status)
        d.earlierStatus = order.permute(disputes.earlierStatus)
        d.statusChangedAt = order.permute(disputes.statusChangedAt)
        d.reason = order.permute(disputes.reason)
        d.withdrawal = order.permute(bMap.remap(disputes.withdrawal))
        d.reinstatement = order.permute(bMap.remap(disputes.reinstatement))
        d.repayment = order.permute(o.transfers.remap(disputes.repayment))
        return d
    }

    private func sortedBalanceTransactions(_ o: WorldOrder) -> BalanceTransactionTable {
        let order = o.balanceTransactions
        var b = BalanceTransactionTable()
        b.created = order.permute(bts.created)
        b.type = order.permute(bts.type)
        b.amount = order.permute(bts.amount)
        b.fee = order.permute(bts.fee)
        b.currency = order.permute(bts.currency)
        b.rate = order.permute(bts.rate)
        b.sourceKind = order.permute(bts.sourceKind)
        b.availableOn = order.permute(bts.availableOn)
        b.pending = order.permute(bts.pending)
        b.balanceType = order.permute(bts.balanceType)
        b.stripeCosts = Dictionary(
            uniqueKeysWithValues: bts.stripeCosts.map { (order.newIndex[Int($0.key)], $0.value) })
        b.collections = Dictionary(
            uniqueKeysWithValues: bts.collections.map { (order.newIndex[Int($0.key)], $0.value) })
        var sources = bts.source
        for index in sources.indices where sources[index] >= 0 {
            let value = Int(sources[index])
            switch bts.sourceKind[index] {
            case .transfer: sources[index] = o.transfers.newIndex[value]
            case .transferReversal: sources[index] = o.reversals.newIndex[value]
            case .applicationFee: sources[index] = o.fees.newIndex[value]
            case .feeRefund: sources[index] = o.feeRefunds.newIndex[value]
            case .refund: sources[index] = o.refunds.newIndex[value]
            case .dispute: sources[index] = o.disputes.newIndex[value]
            default: break
            }
        }
        b.source = order.permute(sources)
        return b
    }
}

extension Array where Element: Equatable {
    /// The elements without adjacent repeats (on a sorted array: without duplicates).
    func uniqued() -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        for element in self where result.last != element { result.append(element) }
        return result
    }
}
