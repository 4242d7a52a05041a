import ReconCore

// MARK: - Refund recovery: did the connected accounts give their share of the refunds back?

extension ReportBuilder {
    /// docs/RULES.md, "Refund recovery", for destination charges and transfer groups alike: per charge (per group) with
    /// a refund this part judges, the connected accounts' share of what was refunded,
    /// `round_half_up(refunded × transferred / captured)`, against what they gave back: the reversals of its
    /// transfers linked to a refund that moved money, or made at or after the first refund and before the first
    /// dispute that withdrew funds, whether by `reverse_transfer` or by hand.
    ///
    /// Stripe reverses each refund's proportional share rounded to the minor unit; a shortfall of at most one minor
    /// unit per refund is that rounding, not a finding. A charge without a transfer (a skipped transfer) has no
    /// share to give back.
    mutating func refundRecovery() {
        var checked: Set<String> = []
        var checkedGroups: Set<String> = []
        for refund in index.refunds where index.judges(refund) && refund.movedMoney {
            // Whether it counts (not the refund of an uncaptured remainder) is read with its charge's refunds.
            guard let chargeID = refund.chargeID, checked.insert(chargeID).inserted,
                let charge = index.chargeByID[chargeID]
            else { continue }
            if let group = index.transferGroups.group(of: charge) {
                if checkedGroups.insert(group).inserted { groupRecovery(group) }
            } else if index.isDestinationCharge(charge), let transfer = index.transfer(of: charge) {
                chargeRecovery(charge, transfer: transfer)
            }
        }
    }

    private mutating func chargeRecovery(_ charge: ChargeFacts, transfer: TransferFacts) {
        let refunds = index.customerRefunds(of: charge)
        guard let subject = refunds.last(where: { index.judges($0) }), charge.amountCaptured > 0 else { return }
        let disputes = index.disputesByCharge[charge.id] ?? []
        let givenBack = refundShareGivenBack(index.reversals(of: transfer), refunds: refunds, disputes: disputes)
        let debited = debits.refundShare(
            owners: owners(of: [charge]), refunds: refunds, disputes: disputes, in: charge.currency)
        guard let refunded = Checked.sum(refunds.map(\.amount)),
            let share = Checked.roundedHalfUp(refunded, times: transfer.amount, dividedBy: charge.amountCaptured),
            let given = Checked.sum(givenBack.map(\.amount) + debited.map { $0.debitedAmount ?? 0 }),
            let shortfall = Checked.subtract(share, given)
        else {
            overflow(charge.id, currency: charge.currency, created: subject.created, what: "refund recovery")
            return
        }
        guard shortfall > Int64(refunds.count) else { return }
        let account = transfer.destinationAccountID ?? "the connected account"
        exception(
            .refundNotRecovered, charge.id, related: transfer.id, currency: charge.currency, created: subject.created,
            subject: subject.id, expected: .amount(share), actual: .amount(given),
            message: "Charge \(charge.id) was refunded \(describe(refunded, charge.currency)); "
                + "\(account)'s share of that is \(describe(share, charge.currency)) of transfer \(transfer.id), "
                + "but only \(describe(given, charge.currency)) was "
                + (debited.isEmpty ? "reversed" : "given back (reversed, or debited from the account)")
                + ", so the platform bore the rest. Reverse the transfer by \(describe(shortfall, charge.currency)) "
                + "if the connected account should.")
    }

    /// The same over a transfer group's charges and transfers (docs/RULES.md, "Separately transferred charges"): the
    /// finding names the group, in the transfers' currency. A group whose charges, or whose transfers, are in more
    /// than one currency is not judged: no rate ties the sums.
    private mutating func groupRecovery(_ group: String) {
        let charges = index.transferGroups.charges[group] ?? []
        let transfers = index.transferGroups.transfers[group] ?? []
        guard let currency = transfers.first?.currency, transfers.allSatisfy({ $0.currency == currency }),
            let chargeCurrency = charges.first?.currency, charges.allSatisfy({ $0.currency == chargeCurrency })
        else { return }
        let refunds = charges.flatMap(index.customerRefunds(of:)).sorted { ($0.created, $0.id) < ($1.created, $1.id) }
        guard let subject = refunds.last(where: { index.judges($0) }) else { return }
        let disputes = index.disputes(ofGroup: group)
        let givenBack = refundShareGivenBack(index.reversals(ofGroup: group), refunds: refunds, disputes: disputes)
        let debited = debits.refundShare(
            owners: [group] + owners(of: charges), refunds: refunds, disputes: disputes, in: currency)
        guard let refunded = Checked.sum(refunds.map(\.amount)),
            let captured = Checked.sum(charges.map(\.amountCaptured)),
            let transferred = Checked.sum(transfers.map(\.amount)),
            let share = Checked.roundedHalfUp(refunded, times: transferred, dividedBy: captured),
            let given = Checked.sum(givenBack.map(\.amount) + debited.map { $0.debitedAmount ?? 0 }),
            let shortfall = Checked.subtract(share, given)
        else {
            overflow(group, currency: currency, created: subject.created, what: "refund recovery")
            return
        }
        guard shortfall > Int64(refunds.count) else { return }
        let accounts = Set(transfers.compactMap(\.destinationAccountID)).sorted().joined(separator: ", ")
        exception(
            .refundNotRecovered, group, related: nil, currency: currency, created: subject.created,
            subject: subject.id, expected: .amount(share), actual: .amount(given),
            message: "Transfer group \(group) was refunded \(describe(refunded, chargeCurrency)); the connected "
                + "accounts' share of that (\(accounts)) is \(describe(share, currency)) of its "
                + "\(describe(transferred, currency)) transferred, but only \(describe(given, currency)) was "
                + (debited.isEmpty ? "reversed" : "given back (reversed, or debited from the accounts)")
                + " after the refund, so the platform bore the rest. Reverse the group's transfers by "
                + "\(describe(shortfall, currency)) if the connected accounts should.")
    }

    /// The ids an account debit may name to recover something of `charges`: theirs and their PaymentIntents'.
    func owners(of charges: [ChargeFacts]) -> [String] {
        charges.flatMap { [$0.id] + [$0.paymentIntentID].compactMap { $0 } }
    }

    /// The reversals (in creation order) that gave a refund's share back: linked to one of `refunds` (the customer
    /// refunds, in creation order) by `source_refund`, or linked to none and made at or after the first of them and
    /// before the first of `disputes` (in creation order) that withdrew funds (a reversal after a dispute is its
    /// recovery). A reversal linked to another refund (a failed one's) gives nothing back.
    func refundShareGivenBack(
        _ reversals: [TransferReversalFacts], refunds: [RefundFacts], disputes: [DisputeFacts]
    ) -> [TransferReversalFacts] {
        guard let first = refunds.first else { return [] }
        let refundIDs = Set(refunds.map(\.id))
        let firstDispute = disputes.first { DisputeFacts.fundsWithdrawnAtSomePoint.contains($0.status) }?.created
        return reversals.filter { reversal in
            if let refundID = reversal.sourceRefundID { return refundIDs.contains(refundID) }
            return reversal.created >= first.created && firstDispute.map { reversal.created < $0 } ?? true
        }
    }
}
