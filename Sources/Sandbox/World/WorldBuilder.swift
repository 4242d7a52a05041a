import ReconCore

/// Generates a world: plans per charge, then objects with their balance transactions, then sorts each table
/// by creation time and rewrites the references.
///
/// The steps live in extensions by concern: ``ChargePlan`` (what to create), `WorldBuilder+Charge` and
/// `WorldBuilder+Disputes` (creating it), `WorldBuilder+Objects` (appending rows with their balance
/// transactions), `WorldBuilder+Tagging` (the scenarios each charge shows), ``PayoutScheduler`` (the daily
/// payouts) and `WorldBuilder+Sorting` (the final order).
final class WorldBuilder {
    let seed: UInt64
    let chargeCount: Int
    let start: Int64
    let end: Int64
    let accountCount: Int

    // The draft tables, in generation order until `finish()` sorts them.
    var charges = ChargeTable()
    var transfers = TransferTable()
    var reversals = ReversalTable()
    var fees = FeeTable()
    var feeRefunds = FeeRefundTable()
    var refunds = RefundTable()
    var disputes = DisputeTable()
    var bts = BalanceTransactionTable()
    var payoutSchedule = PayoutScheduler.Schedule()
    var scenarios: [SandboxScenario: [ScenarioObject]] = [:]
    /// Per transfer (draft index): the amount reversed by refund-linked reversals so far.
    var refundReversed: [Int64] = []

    init(seed: UInt64, chargeCount: Int, start: Int64, end: Int64) {
        self.seed = seed
        self.chargeCount = chargeCount
        self.start = start
        self.end = end
        self.accountCount = max(8, min(400, chargeCount / 2_500))
    }

    /// The number of young charges: card payments under asynchronous capture in the world's last hour.
    private var youngCount: Int { chargeCount >= 50 ? 2 : 0 }

    func build() -> WorldStorage {
        var rng = SplitMix64(seed: seed)
        let times = creationTimes(&rng)
        let plannedAt = guaranteedPlanSlots(&rng)
        charges.created.reserveCapacity(chargeCount)
        for index in 0..<chargeCount {
            var planRNG = SplitMix64(seed: SplitMix64.mix(seed ^ 0xC4A2_6E00) &+ UInt64(index))
            let plan = self.plan(for: index, plannedAt: plannedAt, rng: &planRNG)
            generateCharge(index, created: times[index], plan: plan, rng: &planRNG)
        }
        generateSeparateTransfers(&rng)
        payoutSchedule = PayoutScheduler(seed: seed, start: start, end: end).schedule(&bts)
        return finish()
    }

    /// Creation times: sorted random seconds, the young charges in the last hour.
    private func creationTimes(_ rng: inout SplitMix64) -> [Int64] {
        let regular = chargeCount - youngCount
        var times = (0..<regular).map { _ in rng.int(start...(end - 3_601)) }
        times.sort()
        for k in 0..<youngCount { times.append(end - 1_500 + Int64(k) * 600) }
        return times
    }

    /// Charge index → guaranteed plan: spread over the first half of the world so their later events fit in it
    /// (none when the world has fewer charges than guaranteed plans).
    private func guaranteedPlanSlots(_ rng: inout SplitMix64) -> [Int: ChargePlan] {
        let regular = chargeCount - youngCount
        var plannedAt: [Int: ChargePlan] = [:]
        let guaranteed = ChargePlan.guaranteed()
        let span = max(regular / 2, min(regular, guaranteed.count))
        if span >= guaranteed.count {
            for (k, plan) in guaranteed.enumerated() {
                let slot = span / guaranteed.count
                plannedAt[k * slot + Int(rng.next() % UInt64(max(slot, 1)))] = plan
            }
        }
        return plannedAt
    }

    /// The plan of charge `index`: young, guaranteed or drawn at random.
    private func plan(for index: Int, plannedAt: [Int: ChargePlan], rng: inout SplitMix64) -> ChargePlan {
        guard index < chargeCount - youngCount else {
            var plan = ChargePlan()
            plan.method = .cardAsyncCapture
            plan.style = index % 2 == 0 ? .transferAmount : .applicationFee
            plan.tags = [.youngCharge]
            return plan
        }
        return plannedAt[index] ?? ChargePlan.random(&rng)
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

    /// Whole days since the world's start.
    func dayOf(_ time: Int64) -> Int64 { (time - start) / 86_400 }
}
