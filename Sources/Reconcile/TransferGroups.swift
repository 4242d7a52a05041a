import ReconCore

// MARK: - Separately transferred charges: transfer_groups rows, the Summary's take, the statements' transfers

extension ReportBuilder {
    /// docs/RULES.md, "Separately transferred charges": one row per transfer group with a charge created in the range,
    /// made by the part that judges the group's first charge of the range (every part holds a group's other
    /// members as context, so whichever part it is sees the whole group).
    mutating func transferGroups() {
        let groups = index.transferGroups
        guard !groups.groupOfCharge.isEmpty else { return }
        // By index: only the charges of a group are copied.
        let held = index.charges
        for position in held.indices {
            guard index.isInRange(held[position].created), let group = groups.groupOfCharge[held[position].id] else {
                continue
            }
            let charge = held[position]
            guard index.judges(charge), let charges = groups.charges[group],
                charges.first(where: { index.isInRange($0.created) })?.id == charge.id
            else { continue }
            transferGroup(group, charges: charges, transfers: groups.transfers[group] ?? [])
        }
    }

    private mutating func transferGroup(_ group: String, charges: [ChargeFacts], transfers: [TransferFacts]) {
        guard let first = charges.first else { return }
        let refunds = charges.flatMap { index.refundsByCharge[$0.id] ?? [] }
        let reversals = index.reversals(ofGroup: group)
        guard let amounts = objectAmounts(charges, transfers) ?? settledAmounts(charges, refunds, transfers, reversals)
        else {
            overflow(group, currency: first.currency, created: first.created, what: "platform take")
            return
        }
        let chargeBTs = charges.map { $0.balanceTransactionID.flatMap { index.balanceTransactionByID[$0] } }
        var settlement: Currency?
        var stripeFee: Int64?
        var net: Int64?
        if let settled = Self.oneCurrency(chargeBTs) {
            settlement = settled
            stripeFee = Checked.sum(chargeBTs.compactMap { $0?.fee })
            var sources: [String] = charges.map(\.id)
            var named: [String?] = charges.map(\.balanceTransactionID)
            for refund in refunds {
                sources.append(refund.id)
                named += [refund.balanceTransactionID, refund.failureBalanceTransactionID]
            }
            for transfer in transfers {
                sources.append(transfer.id)
                named.append(transfer.balanceTransactionID)
            }
            for reversal in reversals {
                sources.append(reversal.id)
                named.append(reversal.balanceTransactionID)
            }
            for dispute in index.disputes(ofGroup: group) {
                sources.append(dispute.id)
                named += dispute.balanceTransactionIDs.map { Optional($0) }
            }
            net =
                settledNet(sources: sources, named: named, settlement: settled, objectID: group, created: first.created)
                .amount
        }
        let row = TransferGroupRow(
            transferGroup: group, created: first.created, currency: amounts.currency, charges: charges.count,
            charged: amounts.charged, refunded: amounts.refunded, transfers: transfers.count,
            transferred: amounts.transferred, reversed: amounts.reversed, platformTake: amounts.take,
            stripeFee: stripeFee, settlementCurrency: settlement, platformNet: net)
        transferGroupRows.append(row)
        if let currency = row.currency, let take = row.platformTake {
            countInSummary(currency, \.transferGroups)
            addToSummary(currency, \.platformTake, take, objectID: group, created: first.created, what: "platform take")
        }
        for transfer in transfers { addToStatement(transfer, of: group, created: first.created) }
    }

    /// The currency every one of `transactions` is in; `nil` when one is absent or they differ.
    private static func oneCurrency(_ transactions: [BalanceTransactionFacts?]) -> Currency? {
        guard let first = transactions.first, let currency = first?.currency,
            transactions.allSatisfy({ $0?.currency == currency })
        else { return nil }
        return currency
    }

    /// The group's figures from its objects, when every charge and transfer is in one currency; `nil` when they
    /// are not (or a figure overflows: `settledAmounts` then says so too).
    private func objectAmounts(_ charges: [ChargeFacts], _ transfers: [TransferFacts]) -> GroupAmounts? {
        guard let currency = charges.first?.currency,
            charges.allSatisfy({ $0.currency == currency }) && transfers.allSatisfy({ $0.currency == currency })
        else { return nil }
        var refunded: Int64 = 0
        var captured: Int64 = 0
        for charge in charges {
            guard let amount = index.amountRefunded(charge), let sum = Checked.add(refunded, amount),
                let capturedSum = Checked.add(captured, charge.amountCaptured)
            else { return nil }
            refunded = sum
            captured = capturedSum
        }
        guard let charged = Checked.subtract(captured, refunded),
            let transferred = Checked.sum(transfers.map(\.amount)),
            let reversed = Checked.sum(transfers.map(\.amountReversed))
        else { return nil }
        return GroupAmounts(
            currency: currency, charged: charged, refunded: refunded, transferred: transferred, reversed: reversed)
    }

    /// The group's figures from the balance transactions, when its charges and transfers are in more than one
    /// currency: in the one currency the balance transactions of its charges, their refunds that moved money, its
    /// transfers and their reversals all settled in; figures left empty when there is none (or one is absent).
    private func settledAmounts(
        _ charges: [ChargeFacts], _ refunds: [RefundFacts], _ transfers: [TransferFacts],
        _ reversals: [TransferReversalFacts]
    ) -> GroupAmounts? {
        let empty = GroupAmounts(currency: nil, charged: nil, refunded: nil, transferred: nil, reversed: nil)
        func transactions(_ ids: [String?]) -> [BalanceTransactionFacts]? {
            var found: [BalanceTransactionFacts] = []
            for id in ids {
                guard let bt = id.flatMap({ index.balanceTransactionByID[$0] }) else { return nil }
                found.append(bt)
            }
            return found
        }
        let moved = refunds.filter(\.movedMoney)
        let customer = Set(charges.flatMap(index.customerRefunds(of:)).map(\.id))
        guard let chargeBTs = transactions(charges.map(\.balanceTransactionID)),
            let refundBTs = transactions(moved.map(\.balanceTransactionID)),
            let customerBTs = transactions(moved.filter { customer.contains($0.id) }.map(\.balanceTransactionID)),
            let transferBTs = transactions(transfers.map(\.balanceTransactionID)),
            let reversalBTs = transactions(reversals.map(\.balanceTransactionID)),
            let currency = chargeBTs.first?.currency,
            (chargeBTs + refundBTs + transferBTs + reversalBTs).allSatisfy({ $0.currency == currency })
        else { return empty }
        guard let captured = Checked.sum(chargeBTs.map(\.amount)), let refundNet = Checked.sum(refundBTs.map(\.amount)),
            let charged = Checked.add(captured, refundNet),
            let refunded = Checked.sum(customerBTs.map(\.amount)).flatMap({ Checked.subtract(0, $0) }),
            let transferred = Checked.sum(transferBTs.map(\.amount)).flatMap({ Checked.subtract(0, $0) }),
            let reversed = Checked.sum(reversalBTs.map(\.amount))
        else { return nil }
        return GroupAmounts(
            currency: currency, charged: charged, refunded: refunded, transferred: transferred, reversed: reversed)
    }

    /// Adds a group's transfer to the statement of the account it went to, in its currency.
    private mutating func addToStatement(_ transfer: TransferFacts, of group: String, created: Int64) {
        let key = AccountKey(account: transfer.destinationAccountID, currency: transfer.currency)
        var statement = accounts[key] ?? ConnectedAccountRow(destinationAccount: key.account, currency: key.currency)
        guard let transferred = Checked.add(statement.transferred, transfer.amount),
            let reversed = Checked.add(statement.reversed, transfer.amountReversed)
        else {
            overflow(group, currency: transfer.currency, created: created, what: "transferred total")
            return
        }
        statement.transferred = transferred
        statement.reversed = reversed
        accounts[key] = statement
    }
}

/// A transfer group's figures in one currency; all `nil` when no one currency holds them.
struct GroupAmounts {
    let currency: Currency?
    let charged: Int64?
    let refunded: Int64?
    let transferred: Int64?
    let reversed: Int64?

    /// `charged − (transferred − reversed)`.
    var take: Int64? {
        guard let charged, let transferred, let reversed, let kept = Checked.subtract(transferred, reversed) else {
            return nil
        }
        return Checked.subtract(charged, kept)
    }
}
