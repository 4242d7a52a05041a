import ReconCore

// Tagging: which docs/RULES.md situations each charge actually shows, read back from the draft tables after the charge
// is generated, so events that did not fit in the world are not tagged.

extension WorldBuilder {
    func tag(_ scenario: SandboxScenario, _ kind: StripeIDKind, _ index: Int) {
        scenarios[scenario, default: []].append(ScenarioObject(kind: kind, index: Int32(index)))
    }

    /// Tags the charge with the scenarios it shows: the plan's own tags, then (unless it is one of the young
    /// charges of the world's last hour, or a separately transferred charge, tagged as it is generated) its shape, its
    /// refunds and its disputes.
    func tagCharge(_ c: Int, plan: ChargePlan, young: Bool, skipped: Bool, outcome: ChargePlan.Outcome) {
        for scenario in plan.tags { tag(scenario, .charge, c) }
        if young || plan.separate != nil { return }
        tagShape(c, plan: plan, skipped: skipped, outcome: outcome)
        let refundIndexes = tagRefunds(c)
        tagDisputes(c, refundIndexes: refundIndexes)
    }

    /// Fee style, currency, asynchronous outcome, a transfer on a later day and the plan's inconsistency.
    private func tagShape(_ c: Int, plan: ChargePlan, skipped: Bool, outcome: ChargePlan.Outcome) {
        // An authorisation never captured shows no fee style: nothing was transferred or kept.
        let succeeded = outcome == .succeeded && charges.amountCaptured[c] > 0
        switch charges.style[c] {
        case nil: tag(.plainCharge, .charge, c)
        case .applicationFee where succeeded && !skipped: tag(.applicationFee, .charge, c)
        case .transferAmount where succeeded && !skipped: tag(.transferAmount, .charge, c)
        case .fullTransfer where succeeded && !skipped: tag(.fullTransfer, .charge, c)
        default: break
        }
        switch charges.currency[c] {
        case .jpy: tag(.zeroDecimalCurrency, .charge, c)
        case .bhd: tag(.threeDecimalCurrency, .charge, c)
        case .eur: tag(.crossCurrency, .charge, c)
        default: break
        }
        if skipped { tag(.skippedTransfer, .charge, c) }
        switch plan.capture {
        case .full: break
        case .legacyPartial: if succeeded { tag(.legacyPartialCapture, .charge, c) }
        case .expired: if outcome == .succeeded { tag(.expiredAuthorization, .charge, c) }
        case .partial: if skipped { tag(.partiallyCapturedSkippedTransfer, .charge, c) }
        case .multicaptureInProgress: if succeeded { tag(.multicaptureInProgress, .charge, c) }
        }
        if charges.has(ChargeTable.onBehalfOf, c) { tag(.onBehalfOf, .charge, c) }
        let fee = Int(charges.fee[c])
        if fee >= 0, fees.currency[fee] != charges.currency[c] {
            tag(.crossBorderFee, .charge, c)
            if fees.amountRefunded[fee] > 0 { tag(.crossBorderFeeRefunded, .charge, c) }
            if charges.intentFeeAmount[c] < 0 { tag(.feeCurrencyUnconvertible, .charge, c) }
        }
        if outcome == .pending && plan.method == .bankDebit { tag(.pendingAsync, .charge, c) }
        if outcome == .failed { tag(.failedAsync, .charge, c) }
        let transfer = charges.transfer[c]
        if transfer >= 0, dayOf(transfers.created[Int(transfer)]) > dayOf(charges.created[c]) {
            tag(.transferAfterChargeDay, .charge, c)
        }
        switch plan.anomaly {
        case .none: break
        case .feeMissing: tag(.applicationFeeMissing, .charge, c)
        case .feeMismatch: tag(.applicationFeeAmountMismatch, .charge, c)
        case .transferAmountMismatch: tag(.transferAmountMismatch, .charge, c)
        case .transferCurrencyMismatch: tag(.transferCurrencyMismatch, .charge, c)
        case .transferDestinationMismatch: tag(.transferDestinationMismatch, .charge, c)
        case .sourceTransactionOnly: tag(.sourceTransactionOnly, .charge, c)
        case .missingChargeBT, .missingTransferBT, .missingFeeBT: tag(.missingBalanceTransaction, .charge, c)
        }
    }

    /// Partial and full refunds with and without a reversal, refunds on a later day, refunded application fees
    /// and many reversals; returns the draft indexes of the charge's refunds (the last ones appended).
    private func tagRefunds(_ c: Int) -> [Int] {
        let refundIndexes = refunds.charge.indices.suffix(while: { refunds.charge[$0] == Int32(c) })
        let amount = charges.amount[c]
        var reversedCount = 0
        var prefunded = false
        for refund in refundIndexes where !refunds.uncapturedRemainder[refund] {
            let reversed = refunds.transferReversal[refund] >= 0
            if reversed { reversedCount += 1 }
            if bts.balanceType[Int(refunds.balanceTransaction[refund])] == .refundAndDisputePrefunding {
                prefunded = true
            }
            if refunds.failureBalanceTransaction[refund] >= 0 {
                tag(reversed ? .failedRefundReversed : .failedRefundNotReversed, .charge, c)
                continue
            }
            let full = refunds.amount[refund] == amount
            switch (full, reversed) {
            case (false, true): tag(.partialRefundReversed, .charge, c)
            case (false, false) where charges.isDestinationChargeDraft(c): tag(.partialRefundNotReversed, .charge, c)
            case (true, true): tag(.fullRefundReversed, .charge, c)
            case (true, false) where charges.isDestinationChargeDraft(c): tag(.fullRefundNotReversed, .charge, c)
            default: break
            }
            if dayOf(refunds.created[refund]) > dayOf(charges.created[c]) { tag(.refundAcrossBoundary, .charge, c) }
        }
        if charges.fee[c] >= 0, fees.amountRefunded[Int(charges.fee[c])] > 0 {
            tag(.applicationFeeRefunded, .charge, c)
        }
        if reversedCount > 10 { tag(.manyReversals, .charge, c) }
        if prefunded { tag(.refundAndDisputePrefunding, .charge, c) }
        return refundIndexes
    }

    /// Each dispute's status, disputes on a later day or after a refund, several disputes, and how much of the
    /// withdrawn funds were recovered and repaid.
    private func tagDisputes(_ c: Int, refundIndexes: [Int]) {
        let disputeIndexes = disputes.charge.indices.suffix(while: { disputes.charge[$0] == Int32(c) })
        if disputeIndexes.count > 1 { tag(.multipleDisputes, .charge, c) }
        let transfer = charges.transfer[c]
        for dispute in disputeIndexes {
            let status = disputes.status[dispute]
            let withdrawal = disputes.withdrawal[dispute]
            if withdrawal >= 0, bts.balanceType[Int(withdrawal)] == .refundAndDisputePrefunding {
                tag(.refundAndDisputePrefunding, .charge, c)
            }
            tag(Self.scenario(of: status), .charge, c)
            if dayOf(disputes.created[dispute]) > dayOf(charges.created[c]) { tag(.disputeAcrossBoundary, .charge, c) }
            if !refundIndexes.isEmpty { tag(.disputeAfterPartialRefund, .charge, c) }
            guard status.withdrawsFunds, transfer >= 0 else { continue }
            let recovered = reversals.dispute.indices.reversed().prefix(20)
                .filter { reversals.dispute[$0] == Int32(dispute) }
                .reduce(Int64(0)) { $0 + reversals.amount[$1] }
            let tr = Int(transfer)
            let recoverable = min(disputes.amount[dispute], transfers.amount[tr] - refundReversed[tr])
            if recovered == 0 {
                tag(.disputeNotRecovered, .charge, c)
            } else if recovered >= recoverable {
                tag(.disputeRecovered, .charge, c)
            } else {
                tag(.disputePartiallyRecovered, .charge, c)
            }
            if status == .won, recovered > 0 {
                tag(disputes.repayment[dispute] >= 0 ? .disputeWonRepaid : .disputeWonNotRepaid, .charge, c)
            }
        }
    }

    private static func scenario(of status: WorldDisputeStatus) -> SandboxScenario {
        switch status {
        case .warningNeedsResponse: .disputeWarningNeedsResponse
        case .warningUnderReview: .disputeWarningUnderReview
        case .warningClosed: .disputeWarningClosed
        case .needsResponse: .disputeNeedsResponse
        case .underReview: .disputeUnderReview
        case .won: .disputeWon
        case .lost: .disputeLost
        case .prevented: .disputePrevented
        }
    }
}

extension ChargeTable {
    /// Destination-charge test usable while generating (before `transfer` is complete for later charges).
    func isDestinationChargeDraft(_ index: Int) -> Bool {
        has(ChargeTable.hasTransferData, index) || transfer[index] >= 0 || intentDestination[index] >= 0
    }
}

extension Collection where Index == Int {
    /// The trailing indexes whose element satisfies `predicate`.
    func suffix(while predicate: (Int) -> Bool) -> [Int] {
        var result: [Int] = []
        var index = endIndex - 1
        while index >= startIndex, predicate(index) {
            result.append(index)
            index -= 1
        }
        return result.reversed()
    }
}
