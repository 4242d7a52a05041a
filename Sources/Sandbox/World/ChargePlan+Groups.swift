extension ChargePlan {
    /// The guaranteed separately transferred charges (docs/RULES.md "Separately transferred charges"): a split of one
    /// charge between two accounts with a late transfer and a hand reversal, a group of two charges, refunds recovered
    /// by hand exactly and short, disputes with and without a hand reversal after them, and a group whose transfer is
    /// in another currency than its charge. (``SandboxScenario/sourceTransactionOnly`` is the plan with that anomaly;
    /// ``SandboxScenario/bonusTransfer`` the world's transfers of no charge.)
    static func transferGroupSituations() -> [ChargePlan] {
        typealias T = ChargePlan.Separate.Transfer
        typealias R = ChargePlan.Refund
        let day: Int64 = 86_400
        let soon: ClosedRange<Int64> = 60...3_600
        func dispute(status: WorldDisputeStatus, recovery: ChargePlan.Recovery = .none) -> ChargePlan.Dispute {
            ChargePlan.Dispute(
                status: status, recovery: recovery, delay: 43_200...(2 * day), decision: (2 * day)...(4 * day),
                recoveryDelay: 3_600...day)
        }
        var plans: [ChargePlan] = []
        func add(
            currency: WorldCurrency, amount: Int64, _ separate: ChargePlan.Separate,
            _ more: (inout ChargePlan) -> Void = { _ in }
        ) {
            var plan = ChargePlan()
            plan.style = nil
            plan.currency = currency
            plan.amount = amount
            plan.separate = separate
            more(&plan)
            plans.append(plan)
        }
        // The worked example: 100.00 pays the restaurant 60.00 at once and the courier 25.00 the next day, 10.00 of
        // which the platform reverses later: take 25.00.
        add(
            currency: .usd, amount: 10_000,
            ChargePlan.Separate(
                transfers: [
                    T(perMille: 600, delay: soon),
                    T(
                        perMille: 250, delay: 3_600...(6 * 3_600), afterChargeDay: true, namesSource: false,
                        handReversal: (400, 3_600...(6 * 3_600))),
                ], tags: [.transferGroupSplit]))
        // Two charges of one order, each paying its seller.
        add(
            currency: .usd, amount: 4_000,
            ChargePlan.Separate(
                grouping: .opensSharedGroup, transfers: [T(perMille: 800, delay: soon, namesSource: false)],
                tags: [.transferGroupTwoCharges]))
        add(
            currency: .usd, amount: 6_000,
            ChargePlan.Separate(
                grouping: .joinsOpenGroup, transfers: [T(perMille: 700, delay: soon)],
                tags: [.transferGroupTwoCharges]))
        // Refunds the platform recovers by hand: 40.00 of 100.00 that transferred 85.00, the 34.00 share reversed
        // exactly; 100.00 eur of 200.00 that transferred 140.00, 35.00 of the 70.00 share reversed.
        add(
            currency: .usd, amount: 10_000,
            ChargePlan.Separate(
                transfers: [T(perMille: 600, delay: soon), T(perMille: 250, delay: soon, namesSource: false)],
                refundRecovery: (1000, 3_600...(6 * 3_600)))
        ) {
            $0.refunds = [R(perMille: 400, reverseTransfer: false, refundApplicationFee: false, delay: 3_600...day)]
        }
        add(
            currency: .eur, amount: 20_000,
            ChargePlan.Separate(
                transfers: [T(perMille: 700, delay: soon)], refundRecovery: (500, 3_600...(6 * 3_600)))
        ) {
            $0.refunds = [R(perMille: 500, reverseTransfer: false, refundApplicationFee: false, delay: 3_600...day)]
        }
        // Disputes: lost and recovered in full from two transfers; needing a response, nothing reversed (one
        // transfer); under review, half recovered from two transfers to two accounts.
        add(
            currency: .usd, amount: 8_000,
            ChargePlan.Separate(
                transfers: [T(perMille: 750, delay: soon), T(perMille: 150, delay: soon, namesSource: false)])
        ) { $0.disputes = [dispute(status: .lost, recovery: .full)] }
        add(currency: .usd, amount: 5_000, ChargePlan.Separate(transfers: [T(perMille: 800, delay: soon)])) {
            $0.disputes = [dispute(status: .needsResponse)]
        }
        add(
            currency: .gbp, amount: 9_000,
            ChargePlan.Separate(
                transfers: [T(perMille: 500, delay: soon), T(perMille: 300, delay: soon, namesSource: false)])
        ) { $0.disputes = [dispute(status: .underReview, recovery: .partial)] }
        // A eur charge (settling in usd) paying a usd transfer.
        add(
            currency: .eur, amount: 10_000,
            ChargePlan.Separate(
                transfers: [T(perMille: 800, delay: soon, currency: .usd)], tags: [.transferGroupCrossCurrency]))
        return plans
    }

    /// Makes a random plan a separately transferred charge: no destination, a `transfer_group` of its own (or, one
    /// time in seven, transfers naming it as `source_transaction` only), one to three transfers to different
    /// accounts, some the next day or later and a few reversed by hand; its refunds leave the transfers alone and
    /// are recovered by hand in full, short or not at all; sometimes a dispute, recovered by hand or not.
    mutating func makeSeparatelyTransferred(_ rng: inout SplitMix64) {
        let day: Int64 = 86_400
        style = nil
        anomaly = .none
        account = .domestic
        onBehalfOf = false
        pricingToolFee = false
        skipped = false
        capture = .full
        // Three-decimal amounts must end in 0, which a share of a transfer rarely does.
        if currency == nil || currency == .bhd {
            currency = [WorldCurrency.usd, .eur, .gbp, .jpy][rng.pick([60, 15, 12, 13])]
        }
        let count = rng.int(1...3)
        let total = rng.int(Int64(600)...900)
        var transfers: [Separate.Transfer] = []
        for k in 0..<count {
            let perMille = k == count - 1 ? total - Int64(count - 1) * (total / Int64(count)) : total / Int64(count)
            let later = rng.chance(0.3)
            let handReversal: (perMille: Int64, delay: ClosedRange<Int64>)? =
                rng.chance(0.08) ? (rng.int(Int64(100)...1000), 3_600...(3 * day)) : nil
            transfers.append(
                Separate.Transfer(
                    perMille: perMille, delay: later ? 0...(2 * day) : 60...(6 * 3_600), afterChargeDay: later,
                    namesSource: rng.chance(0.6), handReversal: handReversal))
        }
        var separate = Separate(grouping: rng.chance(0.15) ? .sourceOnly : .ownGroup, transfers: transfers)
        if refunds.isEmpty, rng.chance(0.15) {
            refunds.append(
                Refund(
                    perMille: rng.chance(0.4) ? 1000 : rng.int(Int64(100)...800), reverseTransfer: false,
                    refundApplicationFee: false, delay: Self.refundDelay(&rng)))
        }
        for index in refunds.indices {
            refunds[index].reverseTransfer = false
            refunds[index].refundApplicationFee = false
            refunds[index].feeRefundDelay = nil
            refunds[index].recoveredByHand = nil
        }
        switch rng.pick([30, 50, 20]) {
        case 1: separate.refundRecovery = (1000, 3_600...(2 * day))
        case 2: separate.refundRecovery = (rng.int(Int64(200)...900), 3_600...(2 * day))
        default: break
        }
        if disputes.isEmpty, rng.chance(0.04) {
            let status = [WorldDisputeStatus.lost, .needsResponse, .underReview, .won, .warningClosed][
                rng.pick([35, 25, 15, 15, 10])]
            var dispute = Dispute(status: status, delay: Self.disputeDelay(&rng))
            dispute.recovery = [.none, .full, .partial][rng.pick([40, 45, 15])]
            dispute.recoveryDelay = 3_600...(5 * day)
            disputes.append(dispute)
        }
        self.separate = separate
    }
}
