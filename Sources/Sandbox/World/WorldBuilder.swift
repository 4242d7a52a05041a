/// What the generator means to create for one charge. Most plans are drawn at random; a fixed list of plans
/// (``WorldBuilder/guaranteedPlans``) puts every SPEC §4 situation in any world of a few hundred charges.
struct ChargePlan {
    enum Outcome { case succeeded, pending, failed }
    enum Anomaly {
        case none, feeMissing, feeMismatch, transferAmountMismatch, transferCurrencyMismatch
        case transferDestinationMismatch, sourceNotDestination, missingChargeBT, missingTransferBT, missingFeeBT
    }
    enum Recovery { case none, full, partial }

    struct Refund {
        /// Share of the charge amount in per mille; 1000 refunds whatever is left.
        var perMille: Int64
        var reverseTransfer: Bool
        var refundApplicationFee: Bool
        /// Seconds after the charge settled (or after the previous refund).
        var delay: ClosedRange<Int64> = 600...(5 * 86_400)
        /// Seconds from a refund that left the application fee alone to the platform refunding the fee's share
        /// separately (`POST /v1/application_fees/{id}/refunds`); `nil` when it never does.
        var feeRefundDelay: ClosedRange<Int64>?
    }

    struct Dispute {
        var status: DisputeStatus
        var recovery: Recovery = .none
        var repaid: Bool = false
        /// Seconds from the charge (or its last refund, or the previous dispute) to the dispute.
        var delay: ClosedRange<Int64> = 43_200...(8 * 86_400)
        /// Seconds from a won dispute to the reinstatement of its funds.
        var decision: ClosedRange<Int64> = (3 * 86_400)...(10 * 86_400)
        /// Seconds from the dispute to the transfer reversal that recovers its funds from the connected account.
        var recoveryDelay: ClosedRange<Int64> = 3_600...(2 * 86_400)
    }

    var method = PaymentMethodKind.card
    var outcome = Outcome.succeeded
    var style = FeeStyle.plain
    var skipped = false
    var currency: WorldCurrency?
    var amount: Int64?
    /// The application fee (application-fee style) or the retained part (transfer-amount style).
    var retained: Int64?
    var refunds: [Refund] = []
    var disputes: [Dispute] = []
    var anomaly = Anomaly.none
    var tags: [SandboxScenario] = []
}

/// Generates a world: plans per charge, then objects with their balance transactions, then sorts each table
/// by creation time and rewrites the references.
final class WorldBuilder {
    let seed: UInt64
    let chargeCount: Int
    let start: Int64
    let end: Int64
    let accountCount: Int

    private var charges = ChargeTable()
    private var transfers = TransferTable()
    private var reversals = ReversalTable()
    private var fees = FeeTable()
    private var feeRefunds = FeeRefundTable()
    private var refunds = RefundTable()
    private var disputes = DisputeTable()
    private var bts = BalanceTransactionTable()
    private var payoutSchedule = PayoutScheduler.Schedule()
    private var scenarios: [SandboxScenario: [ScenarioObject]] = [:]
    /// Per transfer (draft index): the amount reversed by refund-linked reversals so far.
    private var refundReversed: [Int64] = []

    init(seed: UInt64, chargeCount: Int, start: Int64, end: Int64) {
        self.seed = seed
        self.chargeCount = chargeCount
        self.start = start
        self.end = end
        self.accountCount = max(8, min(400, chargeCount / 2_500))
    }

    // MARK: Plans

    static func guaranteedPlans() -> [ChargePlan] {
        typealias P = ChargePlan
        typealias R = ChargePlan.Refund
        func D(status: DisputeStatus, recovery: ChargePlan.Recovery = .none, repaid: Bool = false) -> ChargePlan.Dispute
        {
            ChargePlan.Dispute(
                status: status, recovery: recovery, repaid: repaid, delay: 43_200...(2 * 86_400),
                decision: (2 * 86_400)...(4 * 86_400))
        }
        let day: Int64 = 86_400
        var plans: [ChargePlan] = []
        func add(_ configure: (inout ChargePlan) -> Void) {
            var plan = ChargePlan()
            configure(&plan)
            plans.append(plan)
        }
        // The seed's worked examples, exact amounts.
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.amount = 1000
            $0.retained = 123
            $0.tags = [.seedExampleApplicationFee]
        }
        add {
            $0.style = .transferAmount
            $0.currency = .usd
            $0.amount = 1000
            $0.retained = 123
            $0.tags = [.seedExampleTransferAmount]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.amount = 1000
            $0.retained = 123
            $0.refunds = [R(perMille: 1000, reverseTransfer: true, refundApplicationFee: true, delay: 3600...7200)]
            $0.tags = [.seedExampleFullRefundReversed]
        }
        add {
            $0.style = .transferAmount
            $0.currency = .usd
            $0.amount = 1000
            $0.retained = 123
            $0.refunds = [
                R(perMille: 1000, reverseTransfer: false, refundApplicationFee: false, delay: 2 * day...(2 * day + 600))
            ]
            $0.tags = [.seedExampleFullRefundNotReversed]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.amount = 1000
            $0.tags = [.seedExampleFullTransfer]
        }
        // Fee styles, currencies, refunds.
        add {
            $0.style = .plain
            $0.currency = .usd
        }
        add {
            $0.style = .transferAmount
            $0.currency = .usd
            $0.refunds = [R(perMille: 400, reverseTransfer: true, refundApplicationFee: false)]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.refunds = [R(perMille: 300, reverseTransfer: false, refundApplicationFee: false, delay: day...(3 * day))]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.refunds = [
                R(perMille: 250, reverseTransfer: true, refundApplicationFee: true),
                R(perMille: 1000, reverseTransfer: true, refundApplicationFee: true),
            ]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .jpy
        }
        add {
            $0.style = .transferAmount
            $0.currency = .bhd
            $0.amount = 12_340
            $0.retained = 1_230
            $0.refunds = [R(perMille: 333, reverseTransfer: true, refundApplicationFee: false)]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .eur
            $0.refunds = [R(perMille: 500, reverseTransfer: true, refundApplicationFee: false)]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .eur
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.amount = 60_000
            $0.retained = 6_000
            $0.refunds = (0..<13).map { _ in
                R(perMille: 40, reverseTransfer: true, refundApplicationFee: true, delay: 600...(day / 2))
            }
        }
        // Disputes in every status, with and without recovery.
        add {
            $0.style = .fullTransfer
            $0.disputes = [D(status: .warningNeedsResponse)]
        }
        add {
            $0.style = .transferAmount
            $0.disputes = [D(status: .warningUnderReview)]
        }
        add {
            $0.style = .applicationFee
            $0.disputes = [D(status: .warningClosed)]
        }
        add {
            $0.style = .fullTransfer
            $0.disputes = [D(status: .needsResponse)]
        }
        add {
            $0.style = .transferAmount
            $0.disputes = [D(status: .underReview, recovery: .partial)]
        }
        add {
            $0.style = .applicationFee
            $0.disputes = [D(status: .lost, recovery: .full)]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .eur
            $0.disputes = [D(status: .lost)]
        }
        add {
            $0.style = .fullTransfer
            $0.disputes = [D(status: .won, recovery: .full, repaid: true)]
        }
        add {
            $0.style = .transferAmount
            $0.disputes = [D(status: .won, recovery: .full, repaid: false)]
        }
        add {
            $0.style = .applicationFee
            $0.disputes = [D(status: .won)]
        }
        add {
            $0.style = .fullTransfer
            $0.disputes = [D(status: .prevented)]
        }
        add {
            $0.style = .transferAmount
            $0.currency = .jpy
            $0.disputes = [D(status: .needsResponse, recovery: .full)]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.refunds = [R(perMille: 300, reverseTransfer: true, refundApplicationFee: false, delay: 600...day)]
            $0.disputes = [D(status: .lost, recovery: .partial)]
        }
        add {
            $0.style = .applicationFee
            $0.disputes = [D(status: .warningClosed), D(status: .lost, recovery: .full)]
        }
        add {
            $0.style = .plain
            $0.disputes = [D(status: .lost)]
        }
        // Asynchronous payments.
        add {
            $0.method = .bankDebit
            $0.style = .transferAmount
            $0.skipped = true
            $0.currency = .usd
        }
        add {
            $0.method = .bankDebit
            $0.style = .applicationFee
            $0.skipped = true
            $0.currency = .usd
        }
        add {
            $0.method = .bankDebit
            $0.style = .fullTransfer
            $0.skipped = true
            $0.currency = .eur
        }
        add {
            $0.method = .bankDebit
            $0.style = .applicationFee
            $0.outcome = .pending
            $0.currency = .usd
        }
        add {
            $0.method = .bankDebit
            $0.style = .fullTransfer
            $0.outcome = .failed
            $0.currency = .usd
        }
        add {
            $0.method = .bankDebit
            $0.style = .transferAmount
            $0.currency = .usd
            $0.refunds = [R(perMille: 1000, reverseTransfer: true, refundApplicationFee: false)]
        }
        add {
            $0.method = .bankDebit
            $0.style = .applicationFee
            $0.currency = .eur
        }
        // Deliberate inconsistencies.
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.anomaly = .feeMissing
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.anomaly = .feeMismatch
        }
        add {
            $0.style = .transferAmount
            $0.currency = .usd
            $0.anomaly = .transferAmountMismatch
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.anomaly = .transferCurrencyMismatch
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.anomaly = .transferDestinationMismatch
        }
        add {
            $0.style = .plain
            $0.currency = .usd
            $0.anomaly = .sourceNotDestination
        }
        add {
            $0.style = .plain
            $0.currency = .usd
            $0.anomaly = .missingChargeBT
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.anomaly = .missingTransferBT
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.anomaly = .missingFeeBT
        }
        return plans
    }

    /// A plan drawn at random with the world's usual mix.
    private func randomPlan(_ rng: inout SplitMix64) -> ChargePlan {
        var plan = ChargePlan()
        plan.style = [FeeStyle.plain, .applicationFee, .transferAmount, .fullTransfer][rng.pick([20, 35, 25, 20])]
        if rng.chance(0.12) {
            plan.method = .bankDebit
            plan.currency = rng.chance(0.8) ? .usd : .eur
            switch rng.pick([80, 7, 6, 7]) {
            case 1: plan.outcome = .pending
            case 2: plan.outcome = .failed
            case 3 where plan.style != .plain: plan.skipped = true
            default: break
            }
        }
        if rng.chance(0.12) {
            let reverse = plan.style != .plain && rng.chance(0.7)
            let refundFee = reverse && plan.style == .applicationFee && rng.chance(0.6)
            // Some platforms refund the application fee by hand, later, when the refund left it alone.
            let feeRefundDelay: ClosedRange<Int64>? =
                plan.style == .applicationFee && !refundFee && rng.chance(0.3) ? 3_600...(5 * 86_400) : nil
            plan.refunds.append(
                .init(
                    perMille: rng.chance(0.4) ? 1000 : rng.int(100...800), reverseTransfer: reverse,
                    refundApplicationFee: refundFee, delay: WorldBuilder.refundDelay(&rng),
                    feeRefundDelay: feeRefundDelay))
            if rng.chance(0.15) {
                plan.refunds.append(
                    .init(
                        perMille: 1000, reverseTransfer: reverse, refundApplicationFee: refundFee,
                        delay: WorldBuilder.refundDelay(&rng), feeRefundDelay: feeRefundDelay))
            }
        }
        if rng.chance(0.012) {
            let status = DisputeStatus.allCases[rng.pick([8, 5, 7, 20, 15, 20, 20, 5])]
            var dispute = ChargePlan.Dispute(status: status)
            if status.withdrawsFunds {
                dispute.recovery = [.none, .full, .partial][rng.pick([35, 50, 15])]
                dispute.repaid = rng.chance(0.6)
                dispute.recoveryDelay = 3_600...(10 * 86_400)
            }
            if rng.chance(0.05) {
                // An inquiry first; the chargeback follows it after the usual days.
                var inquiry = ChargePlan.Dispute(status: .warningClosed)
                inquiry.delay = WorldBuilder.disputeDelay(&rng)
                plan.disputes.append(inquiry)
            } else {
                dispute.delay = WorldBuilder.disputeDelay(&rng)
            }
            plan.disputes.append(dispute)
        }
        if plan.method == .card, plan.refunds.isEmpty, plan.disputes.isEmpty, rng.chance(0.002) {
            let anomalies: [ChargePlan.Anomaly] = [
                .feeMissing, .feeMismatch, .transferAmountMismatch, .transferCurrencyMismatch,
                .transferDestinationMismatch, .sourceNotDestination, .missingChargeBT, .missingTransferBT,
                .missingFeeBT,
            ]
            let anomaly = anomalies[rng.int(0...(anomalies.count - 1))]
            switch anomaly {
            case .feeMissing, .feeMismatch, .missingFeeBT: plan.style = .applicationFee
            case .transferAmountMismatch: plan.style = .transferAmount
            case .transferCurrencyMismatch, .transferDestinationMismatch, .missingTransferBT: plan.style = .fullTransfer
            case .sourceNotDestination, .missingChargeBT: plan.style = .plain
            case .none: break
            }
            if anomaly == .transferCurrencyMismatch { plan.currency = .usd }
            plan.anomaly = anomaly
        }
        if plan.style != .plain, plan.method == .card, plan.refunds.isEmpty, rng.chance(0.0005) {
            plan.currency = .usd
            plan.amount = rng.int(300...900) * 100
            plan.refunds = (0..<rng.int(11...16)).map { _ in
                .init(perMille: 40, reverseTransfer: true, refundApplicationFee: true, delay: 600...43_200)
            }
        }
        return plan
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

    // MARK: Building

    func build() -> WorldStorage {
        var rng = SplitMix64(seed: seed)
        let young = chargeCount >= 50 ? 2 : 0
        let regular = chargeCount - young
        // Creation times: sorted random seconds, the young charges in the last hour.
        var times = (0..<regular).map { _ in rng.int(start...(end - 3_601)) }
        times.sort()
        for k in 0..<young { times.append(end - 1_500 + Int64(k) * 600) }

        // Guaranteed plans spread over the first half of the world so their later events fit in it.
        var plannedAt: [Int: ChargePlan] = [:]
        let guaranteed = WorldBuilder.guaranteedPlans()
        let span = max(regular / 2, min(regular, guaranteed.count))
        if span >= guaranteed.count {
            for (k, plan) in guaranteed.enumerated() {
                let slot = span / guaranteed.count
                plannedAt[k * slot + Int(rng.next() % UInt64(max(slot, 1)))] = plan
            }
        }
        charges.created.reserveCapacity(chargeCount)
        for index in 0..<chargeCount {
            var planRNG = SplitMix64(seed: SplitMix64.mix(seed ^ 0xC4A2_6E00) &+ UInt64(index))
            var plan: ChargePlan
            if index >= regular {
                plan = ChargePlan()
                plan.method = .cardAsyncCapture
                plan.style = index % 2 == 0 ? .transferAmount : .applicationFee
                plan.tags = [.youngCharge]
            } else {
                plan = plannedAt[index] ?? randomPlan(&planRNG)
            }
            generateCharge(index, created: times[index], plan: plan, rng: &planRNG)
        }
        generateSeparateTransfers(&rng)
        payoutSchedule = PayoutScheduler(seed: seed, start: start, end: end).schedule(&bts)
        return finish()
    }

    private func tag(_ scenario: SandboxScenario, _ kind: StripeIDKind, _ index: Int) {
        scenarios[scenario, default: []].append(ScenarioObject(kind: kind, index: Int32(index)))
    }

    private func dayOf(_ time: Int64) -> Int64 { (time - start) / 86_400 }

    private func stripeFee(_ settled: Int64, _ currency: WorldCurrency, _ method: PaymentMethodKind) -> Int64 {
        if method == .bankDebit { return min((settled * 8 + 500) / 1000, 500) }
        switch currency {
        case .usd, .eur: return (settled * 29 + 500) / 1000 + 30
        case .gbp: return (settled * 15 + 500) / 1000 + 20
        case .jpy: return (settled * 36 + 500) / 1000
        case .bhd: return ((settled * 29 + 500) / 1000 + 300 + 5) / 10 * 10
        }
    }

    private func availableOn(_ time: Int64, days: Int64) -> Int64 {
        (time - ((time % 86_400) + 86_400) % 86_400) + days * 86_400
    }

    @discardableResult
    private func addBT(
        _ created: Int64, _ type: BTType, amount: Int64, fee: Int64 = 0, currency: WorldCurrency, rate: Int32,
        source kind: StripeIDKind, _ source: Int, availableOn: Int64? = nil, pending: Bool = false
    ) -> Int32 {
        bts.created.append(created)
        bts.type.append(type)
        bts.amount.append(amount)
        bts.fee.append(fee)
        bts.currency.append(currency)
        bts.rate.append(rate)
        bts.sourceKind.append(kind)
        bts.source.append(Int32(source))
        bts.availableOn.append(availableOn ?? created)
        bts.pending.append(pending)
        return Int32(bts.count - 1)
    }

    private func addTransfer(
        _ created: Int64, amount: Int64, currency: WorldCurrency, rate: Int32, destination: Int16,
        sourceCharge: Int32, role: TransferRole, dispute: Int32 = -1, withBT: Bool = true
    ) -> Int32 {
        let index = transfers.count
        transfers.created.append(created)
        transfers.amount.append(amount)
        transfers.currency.append(currency)
        transfers.rate.append(rate)
        transfers.destination.append(destination)
        transfers.sourceCharge.append(sourceCharge)
        transfers.role.append(role)
        transfers.dispute.append(dispute)
        transfers.amountReversed.append(0)
        refundReversed.append(0)
        let bt: Int32 =
            withBT
            ? addBT(
                created, .transfer, amount: -convert(amount, rate: rate), currency: currency.settlement, rate: rate,
                source: .transfer, index)
            : -1
        transfers.balanceTransaction.append(bt)
        return Int32(index)
    }

    private func addReversal(_ created: Int64, transfer: Int32, amount: Int64, refund: Int32, dispute: Int32) -> Int32 {
        let index = reversals.count
        let t = Int(transfer)
        reversals.created.append(created)
        reversals.transfer.append(transfer)
        reversals.amount.append(amount)
        reversals.sourceRefund.append(refund)
        reversals.dispute.append(dispute)
        transfers.amountReversed[t] += amount
        if refund >= 0 { refundReversed[t] += amount }
        let rate = transfers.rate[t]
        reversals.balanceTransaction.append(
            addBT(
                created, .transferRefund, amount: convert(amount, rate: rate),
                currency: transfers.currency[t].settlement, rate: rate, source: .transferReversal, index))
        return Int32(index)
    }

    /// Refunds `share` of application fee `fee` (whatever is left of it when `all`), never more than is left;
    /// `false` when nothing was left to refund.
    @discardableResult
    private func refundFee(_ fee: Int32, share: Int64, all: Bool, at created: Int64, rate: Int32) -> Bool {
        let f = Int(fee)
        let left = fees.amount[f] - fees.amountRefunded[f]
        let amount = all ? left : min(left, share)
        guard amount > 0 else { return false }
        let index = feeRefunds.count
        feeRefunds.created.append(created)
        feeRefunds.fee.append(fee)
        feeRefunds.amount.append(amount)
        fees.amountRefunded[f] += amount
        let charge = Int(fees.charge[f])
        feeRefunds.balanceTransaction.append(
            addBT(
                created, .applicationFeeRefund, amount: -convert(amount, rate: rate),
                currency: charges.currency[charge].settlement, rate: rate, source: .feeRefund, index))
        return true
    }

    private func roundDown(_ value: Int64, _ granularity: Int64) -> Int64 { value / granularity * granularity }
    private func roundNearest(_ value: Int64, _ granularity: Int64) -> Int64 {
        (value + granularity / 2) / granularity * granularity
    }

    private func generateCharge(_ c: Int, created t: Int64, plan: ChargePlan, rng: inout SplitMix64) {
        let currency =
            plan.currency ?? [WorldCurrency.usd, .eur, .gbp, .jpy, .bhd][rng.pick([55, 15, 10, 12, 8])]
        let g = currency.granularity
        let amount = plan.amount ?? currency.randomAmount(&rng)
        let destination: Int16 = plan.style == .plain ? -1 : Int16(rng.int(0...(accountCount - 1)))
        let retained = plan.retained ?? max(g, roundNearest(amount * rng.int(80...150) / 1000, g))
        let rate: Int32 = currency.settlement != currency ? Int32(1_070_000 + rng.int(0...30_000)) : 0
        let settlement = currency.settlement

        // When the money settles, and what became of the payment.
        var outcome = plan.outcome
        var settledAt = t
        if plan.method == .bankDebit {
            settledAt = t + rng.int(86_400...(4 * 86_400))
            if settledAt >= end { outcome = .pending }
        }
        let young = plan.method == .cardAsyncCapture
        let skipped = plan.skipped && outcome == .succeeded
        let transferred = plan.style != .plain && outcome == .succeeded && !skipped && !young

        var flags: UInt8 = 0
        if plan.style != .plain && !skipped && !young { flags |= ChargeTable.hasTransferData }
        if plan.style == .applicationFee && !skipped && !young { flags |= ChargeTable.showsFeeAmount }
        charges.created.append(t)
        charges.amount.append(amount)
        charges.currency.append(currency)
        charges.status.append(outcome == .succeeded ? .succeeded : outcome == .pending ? .pending : .failed)
        charges.method.append(plan.method)
        charges.style.append(plan.style)
        charges.intentDestination.append(destination)
        charges.intentTransferAmount.append(plan.style == .transferAmount ? amount - retained : -1)
        charges.intentFeeAmount.append(plan.style == .applicationFee ? retained : -1)
        charges.rate.append(rate)

        // The charge's own balance transaction(s).
        var chargeBT: Int32 = -1
        if plan.anomaly != .missingChargeBT {
            let settled = convert(amount, rate: rate)
            chargeBT = addBT(
                t, plan.method == .bankDebit ? .payment : .charge, amount: settled,
                fee: stripeFee(settled, settlement, plan.method), currency: settlement, rate: rate, source: .charge, c,
                availableOn: availableOn(settledAt, days: 2), pending: outcome == .pending)
        }
        var failureBT: Int32 = -1
        if outcome == .failed {
            failureBT = addBT(
                settledAt, .paymentFailureRefund, amount: -convert(amount, rate: rate), currency: settlement,
                rate: rate,
                source: .charge, c)
        }
        charges.balanceTransaction.append(chargeBT)
        charges.failureBalanceTransaction.append(failureBT)

        // The transfer and the application fee.
        var transfer: Int32 = -1
        var transferAmount: Int64 = 0
        if transferred {
            transferAmount = plan.style == .transferAmount ? amount - retained : amount
            var transferCurrency = currency
            var transferRate = rate
            var transferDestination = destination
            switch plan.anomaly {
            case .transferAmountMismatch: transferAmount -= 10 * g
            case .transferCurrencyMismatch:
                // A eur transfer for a usd charge: it still settles in usd, so the platform net stays in one currency.
                transferCurrency = .eur
                transferRate = Int32(1_070_000 + rng.int(0...30_000))
            case .transferDestinationMismatch: transferDestination = Int16((Int(destination) + 1) % accountCount)
            default: break
            }
            transfer = addTransfer(
                settledAt, amount: transferAmount, currency: transferCurrency, rate: transferRate,
                destination: transferDestination, sourceCharge: Int32(c), role: .destination,
                withBT: plan.anomaly != .missingTransferBT)
        }
        charges.transfer.append(transfer)
        var fee: Int32 = -1
        var feeAmount: Int64 = 0
        if transferred, plan.style == .applicationFee, plan.anomaly != .feeMissing {
            feeAmount = plan.anomaly == .feeMismatch ? retained + 5 * g : retained
            fee = Int32(fees.count)
            fees.created.append(settledAt)
            fees.charge.append(Int32(c))
            fees.amount.append(feeAmount)
            fees.amountRefunded.append(0)
            fees.balanceTransaction.append(
                plan.anomaly == .missingFeeBT
                    ? -1
                    : addBT(
                        settledAt, .applicationFee, amount: convert(feeAmount, rate: rate), currency: settlement,
                        rate: rate, source: .applicationFee, Int(fee)))
        }
        charges.fee.append(fee)
        if plan.anomaly == .sourceNotDestination {
            _ = addTransfer(
                min(t + rng.int(3_600...10_800), end - 1), amount: roundDown(amount / 2, g), currency: currency,
                rate: rate,
                destination: Int16(rng.int(0...(accountCount - 1))), sourceCharge: Int32(c), role: .sourceTransaction)
        }

        // Refunds.
        var refunded: Int64 = 0
        var last = settledAt
        if outcome == .succeeded && !skipped && !young {
            for refundPlan in plan.refunds {
                let remaining = amount - refunded
                guard remaining > 0 else { break }
                let share =
                    refundPlan.perMille >= 1000 ? remaining : roundNearest(amount * refundPlan.perMille / 1000, g)
                let refundAmount = min(max(share, g), remaining)
                let created = last + rng.int(refundPlan.delay)
                guard created < end else { break }
                last = created
                refunded += refundAmount
                let refund = refunds.count
                refunds.created.append(created)
                refunds.charge.append(Int32(c))
                refunds.amount.append(refundAmount)
                refunds.balanceTransaction.append(
                    addBT(
                        created, plan.method == .bankDebit ? .paymentRefund : .refund,
                        amount: -convert(refundAmount, rate: rate), currency: settlement, rate: rate, source: .refund,
                        refund))
                var reversal: Int32 = -1
                if refundPlan.reverseTransfer, transfer >= 0 {
                    let left = transfers.amount[Int(transfer)] - transfers.amountReversed[Int(transfer)]
                    let proportional = roundNearest(transferAmount * refundAmount / amount, g)
                    let reverse = refunded == amount ? left : min(left, proportional)
                    if reverse > 0 {
                        reversal = addReversal(
                            created, transfer: transfer, amount: reverse, refund: Int32(refund), dispute: -1)
                    }
                    if refundPlan.refundApplicationFee, fee >= 0 {
                        let feeShare = roundNearest(feeAmount * refundAmount / amount, g)
                        refundFee(fee, share: feeShare, all: refunded == amount, at: created, rate: rate)
                    }
                }
                refunds.transferReversal.append(reversal)
                // The fee's share refunded on its own, hours or days after a refund that left it alone.
                if let delay = refundPlan.feeRefundDelay, !refundPlan.refundApplicationFee, fee >= 0 {
                    let at = created + rng.int(delay)
                    let feeShare = roundNearest(feeAmount * refundAmount / amount, g)
                    if at < end, refundFee(fee, share: feeShare, all: refunded == amount, at: at, rate: rate) {
                        tag(.applicationFeeRefundedLater, .charge, c)
                    }
                }
            }
        }
        charges.amountRefunded.append(refunded)

        // Disputes.
        var disputed = false
        if outcome == .succeeded && !young {
            var after = last
            for disputePlan in plan.disputes {
                let created = after + rng.int(disputePlan.delay)
                guard created < end else { break }
                after = created
                disputed = true
                var status = disputePlan.status
                var reinstatedAt: Int64 = -1
                if status == .won {
                    reinstatedAt = created + rng.int(disputePlan.decision)
                    if reinstatedAt >= end { status = .underReview }
                }
                let disputeAmount = amount - refunded
                let dispute = disputes.count
                disputes.created.append(created)
                disputes.charge.append(Int32(c))
                disputes.amount.append(disputeAmount)
                disputes.status.append(status)
                disputes.reason.append(UInt8(rng.int(0...(DisputeTable.reasons.count - 1))))
                var withdrawal: Int32 = -1
                var reinstatement: Int32 = -1
                if status.withdrawsFunds {
                    withdrawal = addBT(
                        created, .disputeWithdrawal, amount: -convert(disputeAmount, rate: rate),
                        fee: settlement.disputeFee, currency: settlement, rate: rate, source: .dispute, dispute)
                }
                if status == .won {
                    reinstatement = addBT(
                        reinstatedAt, .disputeReinstatement, amount: convert(disputeAmount, rate: rate),
                        currency: settlement, rate: rate, source: .dispute, dispute)
                }
                disputes.withdrawal.append(withdrawal)
                disputes.reinstatement.append(reinstatement)
                var repayment: Int32 = -1
                if disputePlan.recovery != .none, transfer >= 0, status.withdrawsFunds {
                    let tr = Int(transfer)
                    let recoverable = min(disputeAmount, transfers.amount[tr] - refundReversed[tr])
                    let wanted = disputePlan.recovery == .full ? recoverable : roundDown(recoverable / 2, g)
                    let recovered = min(wanted, transfers.amount[tr] - transfers.amountReversed[tr])
                    let at = created + rng.int(disputePlan.recoveryDelay)
                    if recovered > 0, at < end {
                        _ = addReversal(at, transfer: transfer, amount: recovered, refund: -1, dispute: Int32(dispute))
                        if status == .won, disputePlan.repaid {
                            let payAt = max(at, reinstatedAt) + rng.int(3_600...86_400)
                            if payAt < end {
                                repayment = addTransfer(
                                    payAt, amount: recovered, currency: currency, rate: rate,
                                    destination: transfers.destination[tr], sourceCharge: -1, role: .disputeRepayment,
                                    dispute: Int32(dispute))
                            }
                        }
                    }
                }
                disputes.repayment.append(repayment)
            }
        }
        charges.flags.append(flags | (disputed ? ChargeTable.disputed : 0))
        tagCharge(c, plan: plan, young: young, skipped: skipped, outcome: outcome, settledAt: settledAt)
    }

    /// Tags the charge with the scenarios it actually shows (events that did not fit in the world are not tagged).
    private func tagCharge(
        _ c: Int, plan: ChargePlan, young: Bool, skipped: Bool, outcome: ChargePlan.Outcome, settledAt: Int64
    ) {
        for scenario in plan.tags { tag(scenario, .charge, c) }
        let t = charges.created[c]
        let succeeded = outcome == .succeeded
        if young { return }
        switch charges.style[c] {
        case .plain: tag(.plainCharge, .charge, c)
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
        if outcome == .pending && plan.method == .bankDebit { tag(.pendingAsync, .charge, c) }
        if outcome == .failed { tag(.failedAsync, .charge, c) }
        let transfer = charges.transfer[c]
        if transfer >= 0, dayOf(transfers.created[Int(transfer)]) > dayOf(t) {
            tag(.transferAfterChargeDay, .charge, c)
        }
        switch plan.anomaly {
        case .none: break
        case .feeMissing: tag(.applicationFeeMissing, .charge, c)
        case .feeMismatch: tag(.applicationFeeAmountMismatch, .charge, c)
        case .transferAmountMismatch: tag(.transferAmountMismatch, .charge, c)
        case .transferCurrencyMismatch: tag(.transferCurrencyMismatch, .charge, c)
        case .transferDestinationMismatch: tag(.transferDestinationMismatch, .charge, c)
        case .sourceNotDestination: tag(.transferSourceNotDestinationCharge, .charge, c)
        case .missingChargeBT, .missingTransferBT, .missingFeeBT: tag(.missingBalanceTransaction, .charge, c)
        }
        // Refunds (draft indexes of this charge's refunds are the last ones appended).
        let refundIndexes = refunds.charge.indices.suffix(while: { refunds.charge[$0] == Int32(c) })
        let amount = charges.amount[c]
        var reversedCount = 0
        for refund in refundIndexes {
            let reversed = refunds.transferReversal[refund] >= 0
            if reversed { reversedCount += 1 }
            let full = refunds.amount[refund] == amount
            switch (full, reversed) {
            case (false, true): tag(.partialRefundReversed, .charge, c)
            case (false, false) where charges.isDestinationChargeDraft(c): tag(.partialRefundNotReversed, .charge, c)
            case (true, true): tag(.fullRefundReversed, .charge, c)
            case (true, false) where charges.isDestinationChargeDraft(c): tag(.fullRefundNotReversed, .charge, c)
            default: break
            }
            if dayOf(refunds.created[refund]) > dayOf(t) { tag(.refundAcrossBoundary, .charge, c) }
        }
        if charges.fee[c] >= 0, fees.amountRefunded[Int(charges.fee[c])] > 0 {
            tag(.applicationFeeRefunded, .charge, c)
        }
        if reversedCount > 10 { tag(.manyReversals, .charge, c) }
        // Disputes.
        let disputeIndexes = disputes.charge.indices.suffix(while: { disputes.charge[$0] == Int32(c) })
        if disputeIndexes.count > 1 { tag(.multipleDisputes, .charge, c) }
        for dispute in disputeIndexes {
            let status = disputes.status[dispute]
            let scenario: SandboxScenario =
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
            tag(scenario, .charge, c)
            if dayOf(disputes.created[dispute]) > dayOf(t) { tag(.disputeAcrossBoundary, .charge, c) }
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

    private func generateSeparateTransfers(_ rng: inout SplitMix64) {
        let count = max(2, chargeCount / 100)
        for _ in 0..<count {
            let currency: WorldCurrency = rng.chance(0.8) ? .usd : .gbp
            let index = addTransfer(
                rng.int(start...(end - 1)), amount: rng.int(1_000...80_000), currency: currency, rate: 0,
                destination: Int16(rng.int(0...(accountCount - 1))), sourceCharge: -1, role: .separate)
            tag(.separateTransfer, .transfer, Int(index))
        }
    }

    // MARK: Sorting and references

    /// The order of a table by (created, draft index), and the draft → final index map.
    private func order(_ created: [Int64]) -> (order: [Int32], newIndex: [Int32]) {
        var keys = created.enumerated().map { UInt64(UInt32(truncatingIfNeeded: $1 - start)) << 32 | UInt64($0) }
        keys.sort()
        let order = keys.map { Int32(truncatingIfNeeded: $0 & 0xFFFF_FFFF) }
        var newIndex = [Int32](repeating: 0, count: created.count)
        for (position, draft) in order.enumerated() { newIndex[Int(draft)] = Int32(position) }
        return (order, newIndex)
    }

    private func finish() -> WorldStorage {
        let (tOrder, tMap) = order(transfers.created)
        let (vOrder, vMap) = order(reversals.created)
        let (fOrder, fMap) = order(fees.created)
        let (frOrder, frMap) = order(feeRefunds.created)
        let (rOrder, rMap) = order(refunds.created)
        let (dOrder, dMap) = order(disputes.created)
        let (bOrder, bMap) = order(bts.created)

        func remap(_ values: [Int32], _ map: [Int32]) -> [Int32] { values.map { $0 < 0 ? $0 : map[Int($0)] } }
        func permute<T>(_ values: [T], _ order: [Int32]) -> [T] { order.map { values[Int($0)] } }

        charges.transfer = remap(charges.transfer, tMap)
        charges.fee = remap(charges.fee, fMap)
        charges.balanceTransaction = remap(charges.balanceTransaction, bMap)
        charges.failureBalanceTransaction = remap(charges.failureBalanceTransaction, bMap)

        var t = TransferTable()
        t.created = permute(transfers.created, tOrder)
        t.amount = permute(transfers.amount, tOrder)
        t.currency = permute(transfers.currency, tOrder)
        t.rate = permute(transfers.rate, tOrder)
        t.destination = permute(transfers.destination, tOrder)
        t.sourceCharge = permute(transfers.sourceCharge, tOrder)
        t.role = permute(transfers.role, tOrder)
        t.dispute = permute(remap(transfers.dispute, dMap), tOrder)
        t.balanceTransaction = permute(remap(transfers.balanceTransaction, bMap), tOrder)
        t.amountReversed = permute(transfers.amountReversed, tOrder)
        transfers = TransferTable()

        var v = ReversalTable()
        v.created = permute(reversals.created, vOrder)
        v.transfer = permute(remap(reversals.transfer, tMap), vOrder)
        v.amount = permute(reversals.amount, vOrder)
        v.sourceRefund = permute(remap(reversals.sourceRefund, rMap), vOrder)
        v.dispute = permute(remap(reversals.dispute, dMap), vOrder)
        v.balanceTransaction = permute(remap(reversals.balanceTransaction, bMap), vOrder)
        reversals = ReversalTable()
        t.reversals = Adjacency(ownerCount: t.count, owner: v.transfer)

        var f = FeeTable()
        f.created = permute(fees.created, fOrder)
        f.charge = permute(fees.charge, fOrder)
        f.amount = permute(fees.amount, fOrder)
        f.balanceTransaction = permute(remap(fees.balanceTransaction, bMap), fOrder)
        f.amountRefunded = permute(fees.amountRefunded, fOrder)
        fees = FeeTable()

        var fr = FeeRefundTable()
        fr.created = permute(feeRefunds.created, frOrder)
        fr.fee = permute(remap(feeRefunds.fee, fMap), frOrder)
        fr.amount = permute(feeRefunds.amount, frOrder)
        fr.balanceTransaction = permute(remap(feeRefunds.balanceTransaction, bMap), frOrder)
        feeRefunds = FeeRefundTable()
        f.refunds = Adjacency(ownerCount: f.count, owner: fr.fee)

        var r = RefundTable()
        r.created = permute(refunds.created, rOrder)
        r.charge = permute(refunds.charge, rOrder)
        r.amount = permute(refunds.amount, rOrder)
        r.balanceTransaction = permute(remap(refunds.balanceTransaction, bMap), rOrder)
        r.transferReversal = permute(remap(refunds.transferReversal, vMap), rOrder)
        refunds = RefundTable()

        var d = DisputeTable()
        d.created = permute(disputes.created, dOrder)
        d.charge = permute(disputes.charge, dOrder)
        d.amount = permute(disputes.amount, dOrder)
        d.status = permute(disputes.status, dOrder)
        d.reason = permute(disputes.reason, dOrder)
        d.withdrawal = permute(remap(disputes.withdrawal, bMap), dOrder)
        d.reinstatement = permute(remap(disputes.reinstatement, bMap), dOrder)
        d.repayment = permute(remap(disputes.repayment, tMap), dOrder)
        disputes = DisputeTable()

        charges.refunds = Adjacency(ownerCount: charges.count, owner: r.charge)
        charges.disputes = Adjacency(ownerCount: charges.count, owner: d.charge)

        var b = BalanceTransactionTable()
        b.created = permute(bts.created, bOrder)
        b.type = permute(bts.type, bOrder)
        b.amount = permute(bts.amount, bOrder)
        b.fee = permute(bts.fee, bOrder)
        b.currency = permute(bts.currency, bOrder)
        b.rate = permute(bts.rate, bOrder)
        b.sourceKind = permute(bts.sourceKind, bOrder)
        b.availableOn = permute(bts.availableOn, bOrder)
        b.pending = permute(bts.pending, bOrder)
        var sources = bts.source
        for index in sources.indices {
            let value = Int(sources[index])
            switch bts.sourceKind[index] {
            case .transfer: sources[index] = tMap[value]
            case .transferReversal: sources[index] = vMap[value]
            case .applicationFee: sources[index] = fMap[value]
            case .feeRefund: sources[index] = frMap[value]
            case .refund: sources[index] = rMap[value]
            case .dispute: sources[index] = dMap[value]
            default: break
            }
        }
        b.source = permute(sources, bOrder)
        bts = BalanceTransactionTable()

        // Payouts are generated in creation order: only their balance transactions move.
        var p = payoutSchedule.payouts
        p.balanceTransaction = remap(p.balanceTransaction, bMap)
        p.failureBalanceTransaction = remap(p.failureBalanceTransaction, bMap)
        p.transactions = Adjacency(ownerCount: p.count, owner: permute(payoutSchedule.paidOutBy, bOrder))
        for payout in payoutSchedule.failed { tag(.payoutFailed, .payout, payout) }
        for payout in payoutSchedule.mismatched { tag(.payoutMismatch, .payout, payout) }
        payoutSchedule = PayoutScheduler.Schedule()

        var tags = scenarios
        for (scenario, objects) in tags {
            tags[scenario] = objects.map { object in
                object.kind == .transfer ? ScenarioObject(kind: .transfer, index: tMap[Int(object.index)]) : object
            }.sorted { $0.index < $1.index }
        }
        return WorldStorage(
            seed: seed, start: start, end: end, accountCount: accountCount, charges: charges, transfers: t,
            reversals: v, fees: f, feeRefunds: fr, refunds: r, disputes: d, balanceTransactions: b, payouts: p,
            scenarios: tags)
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
