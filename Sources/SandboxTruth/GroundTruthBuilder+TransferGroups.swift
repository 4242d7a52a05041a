import ReconCore
import Sandbox

// The ground truth of separately transferred charges (docs/RULES.md "Separately transferred charges", docs/RULES.md
// "Separately transferred charges: transfer groups"), from the world's tables: which group each charge and transfer
// belongs to, each group's row, its refund recovery and the unreversed disputes on its charges.

/// The world's transfer groups: group key → its charges and its transfers (indexes, ascending), whenever created.
struct TransferGroupIndex {
    var charges: [String: [Int]] = [:]
    var transfers: [String: [Int]] = [:]
    /// Charge → the group it belongs to.
    var groupOfCharge: [Int: String] = [:]
}

/// A group's sums in the currency of its objects, or of its balance transactions.
private struct GroupFigures {
    var currency: Currency
    var charged: Int64
    var refunded: Int64
    var transferred: Int64
    var reversed: Int64
}

extension GroundTruthBuilder {
    /// A transfer's group: its `transfer_group`, else (it names a `source_transaction` and no group) that charge's id;
    /// `nil` for a transfer of neither (a bonus, a dispute repayment) and for a destination charge's transfer (its
    /// `group_pi_…` holds no charge: destination charges are never part of a group).
    func groupKey(ofTransfer t: Int) -> String? {
        let transfers = storage.transfers
        if transfers.group[t] >= 0 { return WorldStorage.groupName(Int(transfers.group[t])) }
        let source = Int(transfers.sourceCharge[t])
        guard source >= 0, !storage.charges.isDestinationCharge(source) else { return nil }
        return id(.charge, source)
    }

    /// Every group of the world. A charge belongs to one when it succeeded with `amount_captured > 0`, is not a
    /// destination charge and has a group: its own `transfer_group` (its PaymentIntent's is the same), else the group
    /// of the earliest transfer (by creation, then id) naming it as `source_transaction`.
    func collectTransferGroups() -> TransferGroupIndex {
        let charges = storage.charges
        let transfers = storage.transfers
        var index = TransferGroupIndex()
        var earliestSourced: [Int: Int] = [:]
        // The transfer table is in (created, id) order.
        for t in 0..<transfers.created.count {
            if let key = groupKey(ofTransfer: t) { index.transfers[key, default: []].append(t) }
            let source = Int(transfers.sourceCharge[t])
            if source >= 0, earliestSourced[source] == nil { earliestSourced[source] = t }
        }
        for c in 0..<charges.created.count where charges.counts(c) && !charges.isDestinationCharge(c) {
            let key: String? =
                charges.group[c] >= 0
                ? WorldStorage.groupName(Int(charges.group[c])) : earliestSourced[c].flatMap(groupKey(ofTransfer:))
            guard let key else { continue }
            index.charges[key, default: []].append(c)
            index.groupOfCharge[c] = key
        }
        return index
    }

    // MARK: Rows

    /// One row per group with a charge created in the range; its figures added to the Summary (in the row's
    /// currency) and its transfers to their accounts' statements.
    mutating func addTransferGroups() {
        let charges = storage.charges
        let transfers = storage.transfers
        for (key, members) in groups.charges
        where members.contains(where: { (from..<to).contains(charges.created[$0]) }) {
            let groupTransfers = groups.transfers[key] ?? []
            let figures = figures(charges: members, transfers: groupTransfers)
            let take = figures.map { $0.charged - ($0.transferred - $0.reversed) }
            let (stripeFee, settlement) = stripeFee(of: members)
            truth.transferGroups.append(
                TransferGroupRow(
                    transferGroup: key, created: members.map { charges.created[$0] }.min() ?? 0,
                    currency: figures?.currency, charges: members.count, charged: figures?.charged,
                    refunded: figures?.refunded, transfers: groupTransfers.count, transferred: figures?.transferred,
                    reversed: figures?.reversed, platformTake: take, stripeFee: stripeFee,
                    settlementCurrency: settlement,
                    platformNet: platformNet(charges: members, transfers: groupTransfers)))
            if let figures, let take {
                add(figures.currency) {
                    $0.transferGroups += 1
                    $0.platformTake += take
                }
            }
            for t in groupTransfers {
                let amount = transfers.amount[t]
                let reversed = transfers.amountReversed[t]
                add(account: id(.account, Int(transfers.destination[t])), transfers.currency[t].currency) {
                    $0.transferred += amount
                    $0.reversed += reversed
                }
            }
        }
    }

    /// The customer refunds of a charge that moved money: not failed, not of the uncaptured remainder.
    private func customerRefunds(of c: Int) -> [Int] {
        let refunds = storage.refunds
        return storage.charges.refunds.items(of: c).map(Int.init)
            .filter { !refunds.failed($0) && !refunds.uncapturedRemainder[$0] }
    }

    /// The group's five figures: from the objects when every charge and transfer is in one currency; else from the
    /// balance transactions when they all exist and are in one currency (`charged` = the charges' balance
    /// transactions' `amount` plus their refunds' and refund failures', `refunded` = minus the customer refunds'
    /// that did not fail, `transferred` = minus the transfers', `reversed` = the reversals'); else `nil`.
    private func figures(charges members: [Int], transfers groupTransfers: [Int]) -> GroupFigures? {
        let charges = storage.charges
        let transfers = storage.transfers
        let currencies = Set(members.map { charges.currency[$0] } + groupTransfers.map { transfers.currency[$0] })
        if currencies.count == 1, let currency = currencies.first {
            let refunded = members.reduce(Int64(0)) { sum, c in
                sum + customerRefunds(of: c).reduce(Int64(0)) { $0 + storage.refunds.amount[$1] }
            }
            let captured = members.reduce(Int64(0)) { $0 + charges.amountCaptured[$1] }
            return GroupFigures(
                currency: currency.currency, charged: captured - refunded, refunded: refunded,
                transferred: groupTransfers.reduce(Int64(0)) { $0 + transfers.amount[$1] },
                reversed: groupTransfers.reduce(Int64(0)) { $0 + transfers.amountReversed[$1] })
        }
        let bts = storage.balanceTransactions
        let refunds = storage.refunds
        var used: [Int32] = []
        var charged: Int64 = 0
        var refunded: Int64 = 0
        var transferred: Int64 = 0
        var reversed: Int64 = 0
        for c in members {
            used.append(charges.balanceTransaction[c])
            if charges.balanceTransaction[c] >= 0 { charged += bts.amount[Int(charges.balanceTransaction[c])] }
            for r in charges.refunds.items(of: c).map(Int.init) {
                let bt = refunds.balanceTransaction[r]
                used.append(bt)
                guard bt >= 0 else { continue }
                charged += bts.amount[Int(bt)]
                let failure = refunds.failureBalanceTransaction[r]
                if failure >= 0 {
                    used.append(failure)
                    charged += bts.amount[Int(failure)]
                } else if !refunds.uncapturedRemainder[r] {
                    refunded -= bts.amount[Int(bt)]
                }
            }
        }
        for t in groupTransfers {
            let bt = transfers.balanceTransaction[t]
            used.append(bt)
            if bt >= 0 { transferred -= bts.amount[Int(bt)] }
            for v in transfers.reversals.items(of: t).map(Int.init) {
                let reversal = storage.reversals.balanceTransaction[v]
                used.append(reversal)
                if reversal >= 0 { reversed += bts.amount[Int(reversal)] }
            }
        }
        let settlement = Set(used.filter { $0 >= 0 }.map { bts.currency[Int($0)] })
        guard used.allSatisfy({ $0 >= 0 }), settlement.count == 1, let currency = settlement.first else { return nil }
        return GroupFigures(
            currency: currency.currency, charged: charged, refunded: refunded, transferred: transferred,
            reversed: reversed)
    }

    /// `Σ fee` of the charges' balance transactions and their currency; `nil` while a charge has none, or when they
    /// are in more than one currency.
    private func stripeFee(of members: [Int]) -> (Int64?, Currency?) {
        let bts = storage.balanceTransactions
        let booked = members.map { Int(storage.charges.balanceTransaction[$0]) }
        let currencies = Set(booked.filter { $0 >= 0 }.map { bts.currency[$0] })
        guard booked.allSatisfy({ $0 >= 0 }), currencies.count == 1, let currency = currencies.first else {
            return (nil, nil)
        }
        return (booked.reduce(Int64(0)) { $0 + bts.fee[$1] }, currency.currency)
    }

    /// `Σ net` over the balance transactions of the charges, their refunds (and refund failures), the transfers,
    /// their reversals and the charges' disputes, whenever created; `nil` when a charge, refund, transfer or reversal
    /// has none, or when they are in more than one currency.
    private func platformNet(charges members: [Int], transfers groupTransfers: [Int]) -> Int64? {
        let charges = storage.charges
        var required: [Int32] = []
        var optional: [Int32] = []
        for c in members {
            required.append(charges.balanceTransaction[c])
            for r in charges.refunds.items(of: c).map(Int.init) {
                required.append(storage.refunds.balanceTransaction[r])
                optional.append(storage.refunds.failureBalanceTransaction[r])
            }
            for d in charges.disputes.items(of: c).map(Int.init) {
                optional += [storage.disputes.withdrawal[d], storage.disputes.reinstatement[d]]
            }
        }
        for t in groupTransfers {
            required.append(storage.transfers.balanceTransaction[t])
            for v in storage.transfers.reversals.items(of: t) {
                required.append(storage.reversals.balanceTransaction[Int(v)])
            }
        }
        guard required.allSatisfy({ $0 >= 0 }) else { return nil }
        let present = required + optional.filter { $0 >= 0 }
        let bts = storage.balanceTransactions
        guard Set(present.map { bts.currency[Int($0)] }).count == 1 else { return nil }
        return present.reduce(Int64(0)) { $0 + net($1) }
    }

    // MARK: Refund recovery and disputes

    /// What a group's transfers gave back for its refunds: the reversals naming one of its customer refunds, or
    /// naming none and made at or after its first customer refund and before its first dispute that withdrew funds.
    func groupGivenBack(_ key: String) -> (given: Int64, refunds: [Int]) {
        let members = groups.charges[key] ?? []
        let moved = members.flatMap { customerRefunds(of: $0) }
        let movedSet = Set(moved)
        let first = moved.map { storage.refunds.created[$0] }.min()
        let firstDispute = members.flatMap { storage.charges.disputes.items(of: $0).map(Int.init) }
            .filter { storage.disputes.status[$0].withdrawsFunds }
            .map { storage.disputes.created[$0] }.min()
        var given: Int64 = 0
        for t in groups.transfers[key] ?? [] {
            for v in storage.transfers.reversals.items(of: t).map(Int.init) {
                let source = Int(storage.reversals.sourceRefund[v])
                let created = storage.reversals.created[v]
                let counts =
                    source >= 0
                    ? movedSet.contains(source)
                    : first.map { created >= $0 && created < (firstDispute ?? .max) } ?? false
                if counts { given += storage.reversals.amount[v] }
            }
        }
        return (given, moved)
    }

    /// `refund_not_recovered` about each group with a customer refund created in the range: share
    /// `round_half_up(refunded × transferred ÷ captured)` over its charges and transfers, against what its transfers
    /// gave back; a shortfall larger than one minor unit per refund. Not judged when its charges, or its transfers,
    /// are in more than one currency. About the group, no related object, in the transfers' currency.
    mutating func addGroupRefundRecovery() {
        let refunds = storage.refunds
        var judged: [String] = []
        var seen = Set<String>()
        for r in inRange(refunds.created) where !refunds.failed(r) && !refunds.uncapturedRemainder[r] {
            guard let key = groups.groupOfCharge[Int(refunds.charge[r])] else { continue }
            if seen.insert(key).inserted { judged.append(key) }
        }
        for key in judged {
            let members = groups.charges[key] ?? []
            let groupTransfers = groups.transfers[key] ?? []
            let chargeCurrencies = Set(members.map { storage.charges.currency[$0] })
            let transferCurrencies = Set(groupTransfers.map { storage.transfers.currency[$0] })
            guard chargeCurrencies.count == 1, transferCurrencies.count == 1, let currency = transferCurrencies.first
            else { continue }
            let (given, moved) = groupGivenBack(key)
            let refunded = moved.reduce(Int64(0)) { $0 + refunds.amount[$1] }
            let captured = members.reduce(Int64(0)) { $0 + storage.charges.amountCaptured[$1] }
            let transferred = groupTransfers.reduce(Int64(0)) { $0 + storage.transfers.amount[$1] }
            guard captured > 0 else { continue }
            let share = (refunded * transferred + captured / 2) / captured
            guard share - given > Int64(moved.count) else { continue }
            exception(.refundNotRecovered, key, nil, currency.currency, .amount(share), .amount(given))
        }
    }

    /// An unreversed dispute on a group's charge, its transfers standing for `t`, reversals attributed by time:
    /// `recoverable = min(d.amount, Σ amount − their reversals naming a refund or made before the group's first
    /// dispute that withdrew funds)` (that money left the accounts before the dispute), `recovered` = their reversals
    /// naming no refund made at or after the dispute. The row names the destination account when the group's transfers
    /// go to one account, and the transfer when it has one.
    mutating func addGroupDispute(_ d: Int, charge: Int, key: String) {
        let disputes = storage.disputes
        let transfers = storage.transfers
        let status = disputes.status[d]
        guard status.fundsStillWithdrawn else { return }
        let groupTransfers = groups.transfers[key] ?? []
        let transferred = groupTransfers.reduce(Int64(0)) { $0 + transfers.amount[$1] }
        let firstDispute = (groups.charges[key] ?? []).flatMap { storage.charges.disputes.items(of: $0).map(Int.init) }
            .filter { disputes.status[$0].withdrawsFunds }
            .map { disputes.created[$0] }.min()
        var before: Int64 = 0
        for t in groupTransfers {
            for v in transfers.reversals.items(of: t).map(Int.init)
            where storage.reversals.sourceRefund[v] >= 0 || storage.reversals.created[v] < (firstDispute ?? .max) {
                before += storage.reversals.amount[v]
            }
        }
        let recoverable = min(disputes.amount[d], transferred - before)
        var recovered: Int64 = 0
        for t in groupTransfers {
            for v in transfers.reversals.items(of: t).map(Int.init)
            where storage.reversals.sourceRefund[v] < 0 && storage.reversals.created[v] >= disputes.created[d] {
                recovered += storage.reversals.amount[v]
            }
        }
        let unrecovered = recoverable - recovered
        guard unrecovered > 0 else { return }
        let currency = storage.charges.currency[charge].currency
        let accounts = Set(groupTransfers.map { transfers.destination[$0] })
        let account = accounts.count == 1 ? accounts.first.map { id(.account, Int($0)) } : nil
        truth.unreversedDisputes.append(
            UnreversedDisputeRow(
                disputeID: id(.dispute, d), chargeID: id(.charge, charge), created: disputes.created[d],
                currency: currency, disputeAmount: disputes.amount[d],
                disputeStatus: DisputeStatus(rawValue: status.name), destinationAccount: account,
                transferID: groupTransfers.count == 1 ? id(.transfer, groupTransfers[0]) : nil,
                recoverable: recoverable, recovered: recovered, unrecovered: unrecovered))
        add(currency) {
            $0.unreversedDisputes += 1
            $0.unrecovered += unrecovered
        }
        add(account: account, currency) {
            $0.unreversedDisputes += 1
            $0.unrecovered += unrecovered
        }
    }
}
