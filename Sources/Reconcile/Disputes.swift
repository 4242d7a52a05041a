import ReconCore

// MARK: - Disputes: unreversed disputes and won disputes whose recovery was never paid back

extension ReportBuilder {
    /// Statuses whose funds Stripe withdrew from the platform and has not returned (docs/RULES.md).
    static let fundsStillWithdrawn: Set<DisputeStatus> = [.needsResponse, .underReview, .lost]

    /// Every dispute this part judges on a destination charge or on a charge of a transfer group.
    mutating func disputes() {
        for dispute in index.disputes where index.judges(dispute) {
            guard let charge = index.chargeByID[dispute.chargeID] else { continue }
            if let group = index.transferGroups.group(of: charge) {
                if Self.fundsStillWithdrawn.contains(dispute.status) {
                    unreversedDispute(dispute, charge, group: group)
                }
                continue
            }
            guard index.isDestinationCharge(charge) else { continue }
            let transfer = index.transfer(of: charge)
            if dispute.awaitsItsOutcome(onBehalfOf: charge) { continue }
            if Self.fundsStillWithdrawn.contains(dispute.status) {
                unreversedDispute(dispute, charge: charge, transfer: transfer)
            } else if dispute.status == .won, let transfer {
                wonDisputeRepayment(dispute, charge: charge, transfer: transfer)
            }
        }
    }

    /// The transfer reversals that recovered `dispute`'s funds
    /// (``DisputeFacts/recoveryReversals(of:chargeDisputes:)``).
    func recoveryReversals(
        of dispute: DisputeFacts, charge: ChargeFacts, transfer: TransferFacts
    ) -> [TransferReversalFacts] {
        dispute.recoveryReversals(
            of: index.reversals(of: transfer), chargeDisputes: index.disputesByCharge[charge.id] ?? [])
    }

    /// `recoverable = min(d.amount, t.amount − t's refund-linked reversals)`, `recovered` = its recovery
    /// reversals, reported when `recoverable − recovered > 0`. Without a transfer nothing is recoverable from the
    /// connected account (a skipped transfer left the funds with the platform), so nothing is reported.
    private mutating func unreversedDispute(
        _ dispute: DisputeFacts, charge: ChargeFacts, transfer: TransferFacts?
    ) {
        guard let transfer else { return }
        let reversals = index.reversals(of: transfer)
        let disputes = index.disputesByCharge[charge.id] ?? []
        unreversed(
            dispute, charge: charge, transfers: [transfer],
            refundLinked: reversals.filter { $0.sourceRefundID != nil },
            recovery: dispute.recoveryReversals(of: reversals, chargeDisputes: disputes),
            debited: debits.disputeRecovery(dispute, owners: owners(of: [charge]), chargeDisputes: disputes))
    }

    /// The same for a dispute on a charge of a transfer group (docs/RULES.md): the group's transfers stand for `t`, and
    /// reversals are attributed by time: those linked to a refund or made before the group's first dispute that
    /// withdrew funds (a refund's share given back by hand, or a seller's payment the platform took back) left the
    /// connected accounts before the dispute and cannot be recovered again; the recovery reversals are read over
    /// the group's disputes.
    private mutating func unreversedDispute(_ dispute: DisputeFacts, _ charge: ChargeFacts, group: String) {
        let transfers = index.transferGroups.transfers[group] ?? []
        guard !transfers.isEmpty else { return }
        let reversals = index.reversals(ofGroup: group)
        let disputes = index.disputes(ofGroup: group)
        let firstDispute = disputes.first { DisputeFacts.fundsWithdrawnAtSomePoint.contains($0.status) }?.created
        unreversed(
            dispute, charge: charge, transfers: transfers,
            refundLinked: reversals.filter { reversal in
                reversal.sourceRefundID != nil || firstDispute.map { reversal.created < $0 } ?? false
            },
            recovery: dispute.recoveryReversals(of: reversals, chargeDisputes: disputes),
            debited: debits.disputeRecovery(
                dispute, owners: [group] + owners(of: index.transferGroups.charges[group] ?? []),
                chargeDisputes: disputes))
    }

    /// `recoverable = min(d.amount, Σ t.amount − refundLinked)`, `recovered` = `recovery`'s sum, reported when
    /// `recoverable − recovered > 0`. The row names the destination account and the transfer when there is one of
    /// each.
    private mutating func unreversed(
        _ dispute: DisputeFacts, charge: ChargeFacts, transfers: [TransferFacts],
        refundLinked: [TransferReversalFacts], recovery: [TransferReversalFacts], debited: [ChargeFacts]
    ) {
        var recoverable: Int64
        var recovered: Int64
        if let other = transfers.first(where: { $0.currency != dispute.currency }) {
            // Amounts of two currencies cannot be compared: report the whole disputed amount as unrecovered and
            // say why, rather than subtracting eur from usd.
            recoverable = dispute.amount
            recovered = 0
            exception(
                .transferCurrencyMismatch, dispute.id, related: other.id, currency: dispute.currency,
                created: dispute.created, expected: .text(dispute.currency.rawValue),
                actual: .text(other.currency.rawValue),
                message: "Dispute \(dispute.id) is in \(dispute.currency) but transfer \(other.id) is in "
                    + "\(other.currency), so what was recovered cannot be computed; the whole dispute is "
                    + "reported as unrecovered, check its reversals by hand.")
        } else {
            guard
                let transferred = Checked.sum(transfers.map(\.amount)),
                let linked = Checked.sum(refundLinked.map(\.amount)),
                let left = Checked.subtract(transferred, linked),
                let sum = Checked.sum(recovery.map(\.amount) + debited.map { $0.debitedAmount ?? 0 })
            else {
                overflow(dispute.id, currency: dispute.currency, created: dispute.created, what: "recovered amount")
                return
            }
            recoverable = min(dispute.amount, left)
            recovered = sum
        }
        guard let unrecovered = Checked.subtract(recoverable, recovered) else {
            overflow(dispute.id, currency: dispute.currency, created: dispute.created, what: "unrecovered amount")
            return
        }
        guard unrecovered > 0 else { return }
        let accounts = Set(transfers.map(\.destinationAccountID))
        let row = UnreversedDisputeRow(
            disputeID: dispute.id, chargeID: charge.id, created: dispute.created, currency: dispute.currency,
            disputeAmount: dispute.amount, disputeStatus: dispute.status,
            destinationAccount: accounts.count == 1 ? accounts.first ?? nil : nil,
            transferID: transfers.count == 1 ? transfers.first?.id : nil, recoverable: recoverable,
            recovered: recovered, unrecovered: unrecovered, status: .new)
        unreversedDisputes.append(row)
        addToStatement(row)
        countInSummary(dispute.currency, \.unreversedDisputes)
        addToSummary(
            dispute.currency, \.unrecovered, unrecovered, objectID: dispute.id, created: dispute.created,
            what: "unrecovered")
    }

    /// A won dispute returns the funds to the platform; what the platform recovered from the connected account
    /// must go back to it: transfers to the same account tagged `metadata[dispute_id]` with this dispute, created
    /// after it, in the transfer's currency. Reported when they pay back less than was recovered.
    private mutating func wonDisputeRepayment(_ dispute: DisputeFacts, charge: ChargeFacts, transfer: TransferFacts) {
        let repayments = (index.repaymentsByDispute[dispute.id] ?? []).filter {
            $0.destinationAccountID == transfer.destinationAccountID && $0.created >= dispute.created
                && $0.currency == transfer.currency
                && $0.id != transfer.id
        }
        guard
            let recovered = Checked.sum(
                recoveryReversals(of: dispute, charge: charge, transfer: transfer).map(\.amount)),
            let repaid = Checked.sum(repayments.map(\.amount))
        else {
            overflow(dispute.id, currency: transfer.currency, created: dispute.created, what: "recovered amount")
            return
        }
        guard recovered > 0, repaid < recovered else { return }
        exception(
            .wonDisputeNotRepaid, dispute.id, related: transfer.id, currency: transfer.currency,
            created: dispute.created, expected: .amount(recovered), actual: .amount(repaid),
            message: "Dispute \(dispute.id) was won, but only \(describe(repaid, transfer.currency)) of the "
                + "\(describe(recovered, transfer.currency)) recovered from "
                + "\(transfer.destinationAccountID ?? "the connected account") "
                + "was paid back; transfer the rest to it with metadata[dispute_id]=\(dispute.id).")
    }
}
