import ReconCore

// The world served as of an earlier moment: the same tables cut where creation reaches the moment, each object in
// the state it had then. Tables are sorted by creation time, so the objects created before the moment are a prefix
// of each table and keep their indexes, hence their ids; nothing is drawn again.

extension WorldStorage {
    /// The world as Stripe would have served it at `moment` (`start < moment <= end`): objects created at or after it
    /// do not exist, the others are in their state as of it, and their aggregates count only what was created before
    /// it.
    ///
    /// - A bank debit that settles at or after `moment` is `pending`: its balance transaction is pending, its
    ///   transfer, application fee and failure do not exist yet, and it shows the `transfer_data` (and
    ///   `application_fee_amount`) its PaymentIntent asks for, even when Stripe skips the transfer later.
    /// - A refund that fails at or after `moment` is in the status it had before (`succeeded`, or `pending`).
    /// - A dispute whose status changes at or after `moment` shows its earlier status, and its balance
    ///   transactions only those created before `moment`.
    /// - A payout is `failed` once its failure exists, else `paid` once its arrival date passed, else `in_transit`;
    ///   its reconciliation is `in_progress` when it was created less than a day and a half before `moment`.
    /// - `amount_refunded`, `amount_reversed`, the nested lists, `refunded` and `disputed` count only the children
    ///   created before `moment` (failed refunds not counted, as Stripe's `amount_refunded`).
    func servedAsOf(_ moment: Int64) -> WorldStorage {
        let n = ServedCounts(self, moment)
        let r = servedRefunds(n)
        let d = servedDisputes(n, moment)
        let v = servedReversals(n)
        let fr = servedFeeRefunds(n)
        var t = servedTransfers(n)
        t.reversals = Adjacency(ownerCount: n.transfers, owner: v.transfer)
        for reversal in 0..<n.reversals { t.amountReversed[Int(v.transfer[reversal])] += v.amount[reversal] }
        var f = servedFees(n)
        f.refunds = Adjacency(ownerCount: n.fees, owner: fr.fee)
        for refund in 0..<n.feeRefunds { f.amountRefunded[Int(fr.fee[refund])] += fr.amount[refund] }
        let c = servedCharges(n, moment, refunds: r, disputes: d)
        var b = balanceTransactions
        b.truncate(to: n.balanceTransactions)
        for charge in 0..<n.charges where c.settledAt[charge] >= moment && c.balanceTransaction[charge] >= 0 {
            b.pending[Int(c.balanceTransaction[charge])] = true
        }
        let p = servedPayouts(n, moment)
        var tags: [SandboxScenario: [ScenarioObject]] = [:]
        for (scenario, objects) in scenarios {
            tags[scenario] = objects.filter { Int($0.index) < n.count(of: $0.kind) }
        }
        return WorldStorage(
            seed: seed, start: start, end: moment, plannedEnd: plannedEnd, plannedChargeCount: plannedChargeCount,
            accountCount: accountCount, charges: c, transfers: t, reversals: v, fees: f, feeRefunds: fr, refunds: r,
            disputes: d, balanceTransactions: b, payouts: p, scenarios: tags, groupCount: groupCount)
    }

    // MARK: Each table

    private func servedCharges(
        _ n: ServedCounts, _ moment: Int64, refunds r: RefundTable, disputes d: DisputeTable
    ) -> ChargeTable {
        var c = charges
        c.truncate(to: n.charges)
        c.transfer = n.references(c.transfer, below: n.transfers)
        c.fee = n.references(c.fee, below: n.fees)
        c.balanceTransaction = n.references(c.balanceTransaction, below: n.balanceTransactions)
        c.failureBalanceTransaction = n.references(c.failureBalanceTransaction, below: n.balanceTransactions)
        c.refunds = Adjacency(ownerCount: n.charges, owner: r.charge)
        c.disputes = Adjacency(ownerCount: n.charges, owner: d.charge)
        c.amountRefunded = [Int64](repeating: 0, count: n.charges)
        for refund in 0..<n.refunds where !r.failed(refund) {
            c.amountRefunded[Int(r.charge[refund])] += r.amount[refund]
        }
        for charge in 0..<n.charges {
            var flags = c.flags[charge] & ~ChargeTable.disputed
            if !c.disputes.items(of: charge).isEmpty { flags |= ChargeTable.disputed }
            // Not settled yet: pending, asking for the transfer (and fee) its PaymentIntent names.
            if c.settledAt[charge] >= moment {
                c.status[charge] = .pending
                if c.style[charge] != nil { flags |= ChargeTable.hasTransferData }
                if c.style[charge] == .applicationFee, c.intentFeeAmount[charge] >= 0 {
                    flags |= ChargeTable.showsFeeAmount
                }
            }
            c.flags[charge] = flags
        }
        return c
    }

    private func servedTransfers(_ n: ServedCounts) -> TransferTable {
        var t = transfers
        t.truncate(to: n.transfers)
        t.balanceTransaction = n.references(t.balanceTransaction, below: n.balanceTransactions)
        t.dispute = n.references(t.dispute, below: n.disputes)
        t.amountReversed = [Int64](repeating: 0, count: n.transfers)
        return t
    }

    private func servedReversals(_ n: ServedCounts) -> ReversalTable {
        var v = reversals
        v.truncate(to: n.reversals)
        v.balanceTransaction = n.references(v.balanceTransaction, below: n.balanceTransactions)
        return v
    }

    private func servedFees(_ n: ServedCounts) -> FeeTable {
        var f = fees
        f.truncate(to: n.fees)
        f.balanceTransaction = n.references(f.balanceTransaction, below: n.balanceTransactions)
        f.amountRefunded = [Int64](repeating: 0, count: n.fees)
        return f
    }

    private func servedFeeRefunds(_ n: ServedCounts) -> FeeRefundTable {
        var fr = feeRefunds
        fr.truncate(to: n.feeRefunds)
        fr.balanceTransaction = n.references(fr.balanceTransaction, below: n.balanceTransactions)
        return fr
    }

    private func servedRefunds(_ n: ServedCounts) -> RefundTable {
        var r = refunds
        r.truncate(to: n.refunds)
        r.balanceTransaction = n.references(r.balanceTransaction, below: n.balanceTransactions)
        r.transferReversal = n.references(r.transferReversal, below: n.reversals)
        r.failureBalanceTransaction = n.references(r.failureBalanceTransaction, below: n.balanceTransactions)
        return r
    }

    private func servedDisputes(_ n: ServedCounts, _ moment: Int64) -> DisputeTable {
        var d = disputes
        d.truncate(to: n.disputes)
        for dispute in 0..<n.disputes where d.statusChangedAt[dispute] >= moment {
            d.status[dispute] = d.earlierStatus[dispute]
            d.statusChangedAt[dispute] = .max
        }
        d.withdrawal = n.references(d.withdrawal, below: n.balanceTransactions)
        d.reinstatement = n.references(d.reinstatement, below: n.balanceTransactions)
        d.repayment = n.references(d.repayment, below: n.transfers)
        return d
    }

    private func servedPayouts(_ n: ServedCounts, _ moment: Int64) -> PayoutTable {
        var p = payouts
        p.truncate(to: n.payouts)
        p.failureBalanceTransaction = n.references(p.failureBalanceTransaction, below: n.balanceTransactions)
        for payout in 0..<n.payouts {
            p.status[payout] =
                p.failureBalanceTransaction[payout] >= 0
                ? .failed : p.arrivalDate[payout] <= moment ? .paid : .inTransit
            guard p.automatic[payout] else { continue }
            p.reconciliation[payout] =
                moment - p.created[payout] < PayoutScheduler.reconciliationLag ? .inProgress : .completed
        }
        return p
    }
}

/// How many objects of each table were created before a moment.
private struct ServedCounts {
    let charges, transfers, reversals, fees, feeRefunds, refunds, disputes, balanceTransactions, payouts: Int

    init(_ storage: WorldStorage, _ moment: Int64) {
        func before(_ created: [Int64]) -> Int {
            var low = 0
            var high = created.count
            while low < high {
                let mid = (low + high) / 2
                if created[mid] >= moment { high = mid } else { low = mid + 1 }
            }
            return low
        }
        charges = before(storage.charges.created)
        transfers = before(storage.transfers.created)
        reversals = before(storage.reversals.created)
        fees = before(storage.fees.created)
        feeRefunds = before(storage.feeRefunds.created)
        refunds = before(storage.refunds.created)
        disputes = before(storage.disputes.created)
        balanceTransactions = before(storage.balanceTransactions.created)
        payouts = before(storage.payouts.created)
    }

    /// References into a table of `count` objects, `-1` for those to objects not created yet.
    func references(_ values: [Int32], below count: Int) -> [Int32] {
        values.map { $0 >= count ? -1 : $0 }
    }

    func count(of kind: StripeIDKind) -> Int {
        switch kind {
        case .charge, .paymentIntent: charges
        case .transfer: transfers
        case .transferReversal: reversals
        case .applicationFee: fees
        case .feeRefund: feeRefunds
        case .refund: refunds
        case .dispute: disputes
        case .balanceTransaction: balanceTransactions
        case .payout: payouts
        default: .max
        }
    }
}

// MARK: Cutting a table

/// Keeps the first `count` values.
private func cut<T>(_ values: inout [T], _ count: Int) {
    if values.count > count { values.removeSubrange(count...) }
}

extension ChargeTable {
    fileprivate mutating func truncate(to n: Int) {
        cut(&created, n)
        cut(&amount, n)
        cut(&currency, n)
        cut(&status, n)
        cut(&method, n)
        cut(&settledAt, n)
        cut(&style, n)
        cut(&intentDestination, n)
        cut(&intentTransferAmount, n)
        cut(&intentFeeAmount, n)
        cut(&flags, n)
        cut(&rate, n)
        cut(&transfer, n)
        cut(&fee, n)
        cut(&balanceTransaction, n)
        cut(&failureBalanceTransaction, n)
        cut(&amountRefunded, n)
        cut(&amountCaptured, n)
        cut(&group, n)
        payingAccount = payingAccount.filter { $0.key < n }
        debitLinks = debitLinks.filter { $0.key < n }
    }
}

extension TransferTable {
    fileprivate mutating func truncate(to n: Int) {
        cut(&created, n)
        cut(&amount, n)
        cut(&currency, n)
        cut(&settlement, n)
        cut(&rate, n)
        cut(&destination, n)
        cut(&sourceCharge, n)
        cut(&group, n)
        cut(&role, n)
        cut(&dispute, n)
        cut(&balanceTransaction, n)
        cut(&amountReversed, n)
    }
}

extension ReversalTable {
    fileprivate mutating func truncate(to n: Int) {
        cut(&created, n)
        cut(&transfer, n)
        cut(&amount, n)
        cut(&sourceRefund, n)
        cut(&dispute, n)
        cut(&balanceTransaction, n)
    }
}

extension FeeTable {
    fileprivate mutating func truncate(to n: Int) {
        cut(&created, n)
        cut(&charge, n)
        cut(&currency, n)
        cut(&amount, n)
        cut(&balanceTransaction, n)
        cut(&amountRefunded, n)
    }
}

extension FeeRefundTable {
    fileprivate mutating func truncate(to n: Int) {
        cut(&created, n)
        cut(&fee, n)
        cut(&amount, n)
        cut(&balanceTransaction, n)
    }
}

extension RefundTable {
    fileprivate mutating func truncate(to n: Int) {
        cut(&created, n)
        cut(&charge, n)
        cut(&amount, n)
        cut(&balanceTransaction, n)
        cut(&transferReversal, n)
        cut(&failureBalanceTransaction, n)
        cut(&failureReason, n)
        cut(&pendingUntilFailure, n)
        cut(&reason, n)
        cut(&uncapturedRemainder, n)
    }
}

extension DisputeTable {
    fileprivate mutating func truncate(to n: Int) {
        cut(&created, n)
        cut(&charge, n)
        cut(&amount, n)
        cut(&status, n)
        cut(&earlierStatus, n)
        cut(&statusChangedAt, n)
        cut(&reason, n)
        cut(&withdrawal, n)
        cut(&reinstatement, n)
        cut(&repayment, n)
    }
}

extension BalanceTransactionTable {
    fileprivate mutating func truncate(to n: Int) {
        cut(&created, n)
        cut(&type, n)
        cut(&amount, n)
        cut(&fee, n)
        cut(&currency, n)
        cut(&rate, n)
        cut(&sourceKind, n)
        cut(&source, n)
        cut(&availableOn, n)
        cut(&pending, n)
        cut(&balanceType, n)
        stripeCosts = stripeCosts.filter { $0.key < n }
        collections = collections.filter { $0.key < n }
    }
}

extension PayoutTable {
    fileprivate mutating func truncate(to n: Int) {
        cut(&created, n)
        cut(&currency, n)
        cut(&amount, n)
        cut(&arrivalDate, n)
        cut(&automatic, n)
        cut(&status, n)
        cut(&reconciliation, n)
        cut(&balanceTransaction, n)
        cut(&failureBalanceTransaction, n)
        cut(&netOfTransactions, n)
        transactions = transactions.prefix(owners: n)
    }
}
