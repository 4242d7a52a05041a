import ReconCore

extension ChargePlan {
    /// A plan drawn at random with the world's usual mix.
    static func random(_ rng: inout SplitMix64) -> ChargePlan {
        var plan = ChargePlan()
        plan.style = [nil, FeeStyle.applicationFee, .transferAmount, .fullTransfer][rng.pick([20, 35, 25, 20])]
        if rng.chance(0.12) {
            plan.method = .bankDebit
            plan.currency = rng.chance(0.8) ? .usd : .eur
            switch rng.pick([80, 7, 6, 7]) {
            case 1: plan.outcome = .pending
            case 2: plan.outcome = .failed
            case 3 where plan.style != nil: plan.skipped = true
            default: break
            }
        }
        if rng.chance(0.12) {
            let reverse = plan.style != nil && rng.chance(0.7)
            let refundFee = reverse && plan.style == .applicationFee && rng.chance(0.6)
            // Some platforms refund the application fee by hand, later, when the refund left it alone.
            let feeRefundDelay: ClosedRange<Int64>? =
                plan.style == .applicationFee && !refundFee && rng.chance(0.3) ? 3_600...(5 * 86_400) : nil
            plan.refunds.append(
                .init(
                    perMille: rng.chance(0.4) ? 1000 : rng.int(100...800), reverseTransfer: reverse,
                    refundApplicationFee: refundFee, delay: refundDelay(&rng),
                    feeRefundDelay: feeRefundDelay))
            if rng.chance(0.15) {
                plan.refunds.append(
                    .init(
                        perMille: 1000, reverseTransfer: reverse, refundApplicationFee: refundFee,
                        delay: refundDelay(&rng), feeRefundDelay: feeRefundDelay))
            }
        }
        if rng.chance(0.012) {
            let status = WorldDisputeStatus.allCases[rng.pick([8, 5, 7, 20, 15, 20, 20, 5])]
            var dispute = ChargePlan.Dispute(status: status)
            if status.withdrawsFunds {
                dispute.recovery = [.none, .full, .partial][rng.pick([35, 50, 15])]
                dispute.repaid = rng.chance(0.6)
                dispute.recoveryDelay = 3_600...(10 * 86_400)
            }
            if rng.chance(0.05) {
                // An inquiry first; the chargeback follows it after the usual days.
                var inquiry = ChargePlan.Dispute(status: .warningClosed)
                inquiry.delay = disputeDelay(&rng)
                plan.disputes.append(inquiry)
            } else {
                dispute.delay = disputeDelay(&rng)
            }
            plan.disputes.append(dispute)
        }
        if plan.method == .card, plan.refunds.isEmpty, plan.disputes.isEmpty, rng.chance(0.002) {
            let anomalies: [ChargePlan.Anomaly] = [
                .feeMissing, .feeMismatch, .transferAmountMismatch, .transferCurrencyMismatch,
                .transferDestinationMismatch, .sourceTransactionOnly, .missingChargeBT, .missingTransferBT,
                .missingFeeBT,
            ]
            let anomaly = anomalies[rng.int(0...(anomalies.count - 1))]
            switch anomaly {
            case .feeMissing, .feeMismatch, .missingFeeBT: plan.style = .applicationFee
            case .transferAmountMismatch: plan.style = .transferAmount
            case .transferCurrencyMismatch, .transferDestinationMismatch, .missingTransferBT: plan.style = .fullTransfer
            case .sourceTransactionOnly, .missingChargeBT: plan.style = nil
            case .none: break
            }
            if anomaly == .transferCurrencyMismatch { plan.currency = .usd }
            plan.anomaly = anomaly
        }
        if plan.style != nil, plan.method == .card, plan.refunds.isEmpty, rng.chance(0.0005) {
            plan.currency = .usd
            plan.amount = rng.int(300...900) * 100
            plan.refunds = (0..<rng.int(11...16)).map { _ in
                .init(perMille: 40, reverseTransfer: true, refundApplicationFee: true, delay: 600...43_200)
            }
        }
        drawMoneySituations(&plan, &rng)
        return plan
    }

    /// The draws added with the money situations (cross-border fees, `on_behalf_of`, fees of Stripe's pricing
    /// tools, failed refunds, prefunded refunds and disputes), last so the earlier draws keep their values.
    private static func drawMoneySituations(_ plan: inout ChargePlan, _ rng: inout SplitMix64) {
        guard plan.anomaly == .none else { return }
        if plan.style != nil { plan.account = .any }
        if plan.style != nil, plan.method == .card, rng.chance(0.03) { plan.onBehalfOf = true }
        if plan.style == .applicationFee, rng.chance(0.004) { plan.pricingToolFee = true }
        if plan.method == .card, plan.disputes.isEmpty, let last = plan.refunds.indices.last,
            !plan.refunds[last].refundApplicationFee, rng.chance(0.06)
        {
            plan.refunds[last].fails = true
            plan.refunds[last].feeRefundDelay = nil
        }
        if !plan.refunds.isEmpty || !plan.disputes.isEmpty, rng.chance(0.1) { plan.prefunding = true }
    }

    /// How long after the charge settled (or after the previous refund) a random refund comes: half within a
    /// day, a third within a week, the rest up to a month later.
    static func refundDelay(_ rng: inout SplitMix64) -> ClosedRange<Int64> {
        let day: Int64 = 86_400
        return [600...day, day...(7 * day), (7 * day)...(30 * day)][rng.pick([50, 35, 15])]
    }

    /// How long after the charge a random dispute comes: 1 to 75 days, mostly 5 to 30.
    static func disputeDelay(_ rng: inout SplitMix64) -> ClosedRange<Int64> {
        let day: Int64 = 86_400
        return [day...(5 * day), (5 * day)...(30 * day), (30 * day)...(75 * day)][rng.pick([20, 60, 20])]
    }
}
