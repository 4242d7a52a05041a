// A charge's disputes: when each comes, how it ends within the world, the funds it withdraws and reinstates, and
// the reversal that recovers them from the connected account and the transfer that pays them back after a win.

extension WorldBuilder {
    /// The plan's disputes that fit in the world, each after the previous one (the first after the last refund),
    /// recovered from a separately transferred charge's group by hand reversals as the plan says; returns whether the
    /// charge was disputed.
    func addDisputes(
        _ terms: ChargeTerms, _ links: ChargeLinks, _ group: GroupDraft?, refunded: Int64, after lastRefund: Int64,
        rng: inout SplitMix64
    ) -> Bool {
        guard terms.outcome == .succeeded, !terms.young else { return false }
        var disputed = false
        var after = lastRefund
        for disputePlan in terms.plan.disputes {
            let created = after + rng.int(disputePlan.delay)
            guard created < end else { break }
            after = created
            disputed = true
            var status = disputePlan.status
            var earlierStatus = status
            var changedAt = Int64.max
            var reinstatedAt: Int64 = -1
            var withdrawnAt = created
            if status == .won {
                reinstatedAt = created + rng.int(disputePlan.decision)
                earlierStatus = disputePlan.beforeDecision ?? .underReview
                // A decision the world's "now" has not reached yet.
                if reinstatedAt >= end { status = earlierStatus } else { changedAt = reinstatedAt }
            }
            if status == .lost, let before = disputePlan.beforeDecision {
                // Decided (lost) later: the status before the decision until then.
                let decidedAt = created + rng.int(disputePlan.decision)
                earlierStatus = before
                if decidedAt >= end { status = earlierStatus } else { changedAt = decidedAt }
            }
            if let escalation = disputePlan.escalation {
                // An inquiry first; the chargeback (and its withdrawal) when it escalates, if the world reaches it.
                withdrawnAt = created + rng.int(escalation)
                earlierStatus = .warningUnderReview
                if withdrawnAt >= end { status = earlierStatus } else { changedAt = withdrawnAt }
            }
            let disputeAmount = terms.amount - refunded
            let dispute = appendDispute(
                terms, amount: disputeAmount, status: status, at: created, withdrawnAt: withdrawnAt,
                reinstatedAt: reinstatedAt, rng: &rng)
            disputes.earlierStatus.append(earlierStatus)
            disputes.statusChangedAt.append(changedAt)
            if let scenario = disputePlan.tag, changedAt < end { tag(scenario, .dispute, dispute) }
            var repayment: Int32 = -1
            if disputePlan.recovery != .none, links.transfer >= 0, status.withdrawsFunds {
                repayment = recoverDispute(
                    dispute, terms, disputePlan, transfer: links.transfer, amount: disputeAmount, status: status,
                    at: created, reinstatedAt: reinstatedAt, rng: &rng)
            }
            disputes.repayment.append(repayment)
            if let group {
                recoverGroupDispute(
                    group, terms, disputePlan, amount: disputeAmount, status: status, at: created, rng: &rng)
            }
        }
        return disputed
    }

    /// A dispute's columns (but its earlier status) and its withdrawal and reinstatement balance transactions;
    /// returns its index.
    private func appendDispute(
        _ terms: ChargeTerms, amount: Int64, status: WorldDisputeStatus, at created: Int64, withdrawnAt: Int64,
        reinstatedAt: Int64, rng: inout SplitMix64
    ) -> Int {
        let dispute = disputes.count
        let rate = terms.rate
        let settlement = terms.settlement
        disputes.created.append(created)
        disputes.charge.append(Int32(terms.index))
        disputes.amount.append(amount)
        disputes.status.append(status)
        disputes.reason.append(UInt8(rng.int(0...(DisputeTable.reasons.count - 1))))
        var withdrawal: Int32 = -1
        var reinstatement: Int32 = -1
        if status.withdrawsFunds {
            withdrawal = addBT(
                withdrawnAt, .disputeWithdrawal, amount: -convert(amount, rate: rate), fee: settlement.disputeFee,
                currency: settlement, rate: rate, source: .dispute, dispute,
                balance: terms.plan.prefunding ? .refundAndDisputePrefunding : .payments)
        }
        if status == .won {
            reinstatement = addBT(
                reinstatedAt, .disputeReinstatement, amount: convert(amount, rate: rate), currency: settlement,
                rate: rate, source: .dispute, dispute)
        }
        disputes.withdrawal.append(withdrawal)
        disputes.reinstatement.append(reinstatement)
        return dispute
    }

    /// Reverses the dispute's share of the transfer (all of it or half, as the plan says, never more than refunds
    /// left) and, for a won dispute the platform repays, pays it back; returns the repayment transfer or `-1`.
    private func recoverDispute(
        _ dispute: Int, _ terms: ChargeTerms, _ disputePlan: ChargePlan.Dispute, transfer: Int32, amount: Int64,
        status: WorldDisputeStatus, at created: Int64, reinstatedAt: Int64, rng: inout SplitMix64
    ) -> Int32 {
        let tr = Int(transfer)
        let recoverable = min(amount, transfers.amount[tr] - refundReversed[tr])
        let wanted =
            disputePlan.recovery == .full ? recoverable : roundDown(recoverable / 2, terms.granularity)
        let recovered = min(wanted, transfers.amount[tr] - transfers.amountReversed[tr])
        let at = created + rng.int(disputePlan.recoveryDelay)
        guard recovered > 0, at < end else { return -1 }
        _ = addReversal(at, transfer: transfer, amount: recovered, refund: -1, dispute: Int32(dispute))
        guard status == .won, disputePlan.repaid else { return -1 }
        let payAt = max(at, reinstatedAt) + rng.int(3_600...86_400)
        guard payAt < end else { return -1 }
        return addTransfer(
            payAt, amount: recovered, currency: terms.currency, settlement: terms.settlement, rate: terms.rate,
            destination: transfers.destination[tr], sourceCharge: -1, role: .disputeRepayment,
            dispute: Int32(dispute))
    }
}
