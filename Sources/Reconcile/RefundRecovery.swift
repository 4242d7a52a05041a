import ReconCore

// MARK: - Refund recovery: did the connected account give its share of the refunds back?

extension ReportBuilder {
    /// SPEC §4, "Refund recovery", for destination charges: per charge with a refund this part judges, the connected
    /// account's share of what was refunded, `round_half_up(refunded × transferred / captured)`, against what it
    /// gave back: the reversals of the charge's transfer linked to a refund that moved money, or made at or after
    /// the first refund and before the first dispute that withdrew funds, whether by `reverse_transfer` or by hand.
    ///
    /// Stripe reverses each refund's proportional share rounded to the minor unit; a shortfall of at most one minor
    /// unit per refund is that rounding, not a finding. A charge without a transfer (a skipped transfer) has no
    /// share to give back.
    mutating func refundRecovery() {
        var checked: Set<String> = []
        for refund in index.refunds where index.judges(refund) && refund.movedMoney {
            // Whether it counts (not the refund of an uncaptured remainder) is read with its charge's refunds.
            guard let chargeID = refund.chargeID, checked.insert(chargeID).inserted,
                let charge = index.chargeByID[chargeID], index.isDestinationCharge(charge),
                let transfer = index.transfer(of: charge)
            else { continue }
            recovery(of: charge, transfer: transfer)
        }
    }

    private mutating func recovery(of charge: ChargeFacts, transfer: TransferFacts) {
        let refunds = index.customerRefunds(of: charge)
        guard let first = refunds.first, let subject = refunds.last(where: { index.judges($0) }),
            charge.amountCaptured > 0
        else { return }
        let movedMoney = Set(refunds.map(\.id))
        let firstDispute =
            (index.disputesByCharge[charge.id] ?? [])
            .first { DisputeFacts.fundsWithdrawnAtSomePoint.contains($0.status) }?.created
        let givenBack = index.reversals(of: transfer).filter { reversal in
            if let refundID = reversal.sourceRefundID { return movedMoney.contains(refundID) }
            return reversal.created >= first.created && firstDispute.map { reversal.created < $0 } ?? true
        }
        guard let refunded = Checked.sum(refunds.map(\.amount)),
            let share = Checked.roundedHalfUp(refunded, times: transfer.amount, dividedBy: charge.amountCaptured),
            let given = Checked.sum(givenBack.map(\.amount)),
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
                + "but only \(describe(given, charge.currency)) was reversed, so the platform bore the rest. "
                + "Reverse the transfer by \(describe(shortfall, charge.currency)) if the connected account should.")
    }
}
