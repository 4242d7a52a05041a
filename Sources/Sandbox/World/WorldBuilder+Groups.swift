// Separately transferred charges (docs/RULES.md, Stripe's "Separate charges and transfers"): a charge with no
// destination whose platform pays connected accounts with transfers it creates itself, minutes to days later, tied to
// the charge by a `transfer_group` (on the charge and its PaymentIntent) and/or `source_transaction`; refunds and
// disputes never touch those transfers, so the platform reverses them by hand.

/// What the generator knows of a transfer group while it builds its charges: its transfers so far and the sums the
/// platform's hand reversals are computed from.
struct GroupDraft {
    /// The `transfer_group` index, `-1` for a charge whose transfers name it as `source_transaction` only.
    var group: Int32
    /// Draft transfer indexes, in creation order per charge.
    var transfers: [Int32] = []
    /// `Σ amount_captured` of its charges so far.
    var captured: Int64 = 0
    /// `Σ amount` of its transfers so far.
    var transferred: Int64 = 0
    /// What the hand reversals after refunds gave back so far.
    var givenBack: Int64 = 0
    /// When its last transfer was created (the charge's settlement before any), leaving out those made whatever
    /// happened to the charge: its refunds and disputes follow this.
    var lastTransfer: Int64 = 0
}

extension WorldBuilder {
    /// The charge's `transfer_group` column and, for a separately transferred charge that succeeded, its group and
    /// transfers (with the hand reversals the plan asks for); `nil` for any other charge.
    func addSeparateTransfers(_ terms: ChargeTerms, rng: inout SplitMix64) -> GroupDraft? {
        guard let separate = terms.plan.separate else {
            charges.group.append(-1)
            return nil
        }
        let c = terms.index
        var draft: GroupDraft
        switch separate.grouping {
        case .sourceOnly:
            draft = GroupDraft(group: -1)
        case .joinsOpenGroup where openGroup >= 0:
            draft = openGroupDraft ?? GroupDraft(group: openGroup)
        case .ownGroup, .opensSharedGroup, .joinsOpenGroup:
            draft = GroupDraft(group: groupCount)
            groupCount += 1
        }
        charges.group.append(draft.group)
        draft.lastTransfer = terms.settledAt
        guard terms.outcome == .succeeded, terms.captured > 0, !terms.young else { return draft }
        draft.captured += terms.captured
        let base = rng.int(0...(accountCount - 1))
        var made = 0
        var reversed = 0
        let plannedReversals = separate.transfers.filter { $0.handReversal != nil }.count
        for (k, plan) in separate.transfers.enumerated() {
            let from = plan.afterChargeDay ? max(terms.settledAt, availableOn(terms.created, days: 1)) : terms.settledAt
            let created = from + rng.int(plan.delay)
            let currency = plan.currency ?? terms.currency
            let sameCurrency = currency == terms.currency
            let rate: Int32 =
                sameCurrency ? terms.rate : currency.settlement != currency ? Int32(1_070_000 + rng.int(0...30_000)) : 0
            let g = currency.granularity
            let asked = terms.captured * plan.perMille / 1000
            // A transfer in another currency pays the share converted at the world's reference rate.
            let converted = sameCurrency ? asked : convert(asked, rate: terms.currency.referenceRate(to: currency))
            let amount = max(g, roundNearest(converted, g))
            let destination = Int16((base + 3 * k) % accountCount)
            let reversalAt = created + rng.int(plan.handReversal?.delay ?? 0...0)
            guard created < end else { continue }
            let transfer = addTransfer(
                created, amount: amount, currency: currency,
                settlement: sameCurrency ? terms.settlement : currency.settlement, rate: rate,
                destination: destination,
                sourceCharge: plan.namesSource || separate.grouping == .sourceOnly ? Int32(c) : -1,
                role: .separateCharge, group: draft.group)
            made += 1
            draft.transfers.append(transfer)
            draft.transferred += amount
            if !plan.madeWhateverHappened { draft.lastTransfer = max(draft.lastTransfer, created) }
            if let reversal = plan.handReversal, reversalAt < end {
                let reverse = min(amount, max(g, roundNearest(amount * reversal.perMille / 1000, g)))
                addReversal(reversalAt, transfer: transfer, amount: reverse, refund: -1, dispute: -1)
                reversed += 1
            }
        }
        if made == separate.transfers.count, reversed == plannedReversals {
            for scenario in separate.tags { tag(scenario, .charge, c) }
        }
        if separate.grouping == .opensSharedGroup {
            openGroup = draft.group
            openGroupDraft = draft
        } else if separate.grouping == .joinsOpenGroup, draft.group == openGroup {
            openGroup = -1
            openGroupDraft = nil
        }
        return draft
    }

    /// After a refund of a group charge: the platform reverses the plan's per mille of the accounts' share of it
    /// (`round_half_up(refund × transferred ÷ captured)`) from the group's transfers by hand, later.
    func recoverGroupRefund(
        _ draft: inout GroupDraft, _ terms: ChargeTerms, refund amount: Int64, at refunded: Int64,
        rng: inout SplitMix64
    ) {
        guard let recovery = terms.plan.separate?.refundRecovery, draft.captured > 0 else { return }
        let at = refunded + rng.int(recovery.delay)
        let share = (amount * draft.transferred + draft.captured / 2) / draft.captured
        let wanted = roundNearest(share * recovery.perMille / 1000, terms.granularity)
        guard at < end, wanted > 0 else { return }
        let given = reverseByHand(wanted, over: draft.transfers, at: at, granularity: terms.granularity)
        draft.givenBack += given
        guard given > 0 else { return }
        tag(recovery.perMille >= 1000 ? .groupRefundRecovered : .groupRefundNotRecovered, .charge, terms.index)
    }

    /// After a dispute on a group charge: the platform reverses what it can recover (all of it, or half, as the plan
    /// says) from the group's transfers by hand, later; tags whether it did.
    func recoverGroupDispute(
        _ draft: GroupDraft, _ terms: ChargeTerms, _ disputePlan: ChargePlan.Dispute, amount: Int64,
        status: WorldDisputeStatus, at created: Int64, rng: inout SplitMix64
    ) {
        guard status.withdrawsFunds, draft.transferred > 0 else { return }
        var recovered: Int64 = 0
        if disputePlan.recovery != .none {
            let recoverable = min(amount, draft.transferred - draft.givenBack)
            let wanted =
                disputePlan.recovery == .full ? recoverable : roundDown(recoverable / 2, terms.granularity)
            let at = created + rng.int(disputePlan.recoveryDelay)
            if at < end, wanted > 0 {
                recovered = reverseByHand(wanted, over: draft.transfers, at: at, granularity: terms.granularity)
            }
        }
        if recovered > 0 {
            tag(.groupDisputeReversed, .charge, terms.index)
        } else if status.fundsStillWithdrawn {
            tag(.groupDisputeNotReversed, .charge, terms.index)
        }
    }

    /// Reverses `total` from `transfers` (those created by `at`), in proportion to what is left of each, never more
    /// than is left; returns what was reversed.
    private func reverseByHand(_ total: Int64, over candidates: [Int32], at: Int64, granularity g: Int64) -> Int64 {
        let open = candidates.filter { leftOn($0) > 0 && transfers.created[Int($0)] <= at }
        let pool = open.reduce(Int64(0)) { $0 + leftOn($1) }
        guard pool > 0 else { return 0 }
        var left = min(total, pool)
        let goal = left
        for (k, transfer) in open.enumerated() where left > 0 {
            let part = k == open.count - 1 ? left : roundDown(goal * leftOn(transfer) / pool, g)
            let amount = min(part, left, leftOn(transfer))
            guard amount > 0 else { continue }
            addReversal(at, transfer: transfer, amount: amount, refund: -1, dispute: -1)
            left -= amount
        }
        return goal - left
    }

    /// What is left of a transfer to reverse.
    private func leftOn(_ transfer: Int32) -> Int64 {
        transfers.amount[Int(transfer)] - transfers.amountReversed[Int(transfer)]
    }
}
