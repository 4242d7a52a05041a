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
    /// The share of random charges made separately transferred charges (``ChargePlan/separatelyTransferred(_:)``).
    let transferGroupShare: Double
    /// Whether the late outcomes include money moved by hand (``ChargePlan/lateMovesByHand()``).
    let movesByHand: Bool
    /// Whether the world also holds the platform's other money (``generateOtherMoney()``).
    let otherMoney: Bool

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
    /// The `transfer_group` values handed out so far.
    var groupCount: Int32 = 0
    /// The group a ``ChargePlan/Separate/Grouping/opensSharedGroup`` charge opened for the next charge to join, and
    /// what the generator knows of it; `-1` for none.
    var openGroup: Int32 = -1
    var openGroupDraft: GroupDraft?

    init(
        seed: UInt64, chargeCount: Int, start: Int64, end: Int64, transferGroupShare: Double = 0,
        movesByHand: Bool = false, otherMoney: Bool = false
    ) {
        self.seed = seed
        self.chargeCount = chargeCount
        self.start = start
        self.end = end
        self.accountCount = max(8, min(400, chargeCount / 2_500))
        self.transferGroupShare = min(max(transferGroupShare, 0), 1)
        self.movesByHand = movesByHand
        self.otherMoney = otherMoney
    }

    /// The number of young charges: card payments under asynchronous capture in the world's last hour, two without
    /// their transfer (``SandboxScenario/youngCharge``) and at least two whose balance transaction, transfer and
    /// application fee are all still to come (``SandboxScenario/youngChargeMissingParts``).
    private var youngCount: Int { chargeCount >= 50 ? 4 + chargeCount / 100_000 : 0 }

    func build() -> WorldStorage {
        var rng = SplitMix64(seed: seed)
        var times = creationTimes(&rng)
        var plannedAt = guaranteedPlanSlots(&rng)
        plannedAt.merge(lateOutcomeSlots(&times, avoiding: plannedAt)) { guaranteed, _ in guaranteed }
        if otherMoney { plannedAt.merge(debitSlots(times, avoiding: plannedAt)) { planned, _ in planned } }
        charges.created.reserveCapacity(chargeCount)
        for index in 0..<chargeCount {
            var planRNG = SplitMix64(seed: SplitMix64.mix(seed ^ 0xC4A2_6E00) &+ UInt64(index))
            let plan = self.plan(for: index, plannedAt: plannedAt, rng: &planRNG)
            generateCharge(index, created: times[index], plan: plan, rng: &planRNG)
        }
        generateSeparateTransfers(&rng)
        generateIssuingTransactions(&rng)
        if otherMoney { generateOtherMoney() }
        payoutSchedule = PayoutScheduler(seed: seed, start: start, end: end, failsOneLate: chargeCount >= 200)
            .schedule(&bts)
        return finish()
    }

    /// Creation times: sorted random seconds, the young charges in the last hour.
    private func creationTimes(_ rng: inout SplitMix64) -> [Int64] {
        let regular = chargeCount - youngCount
        var times = (0..<regular).map { _ in rng.int(start...(end - 3_601)) }
        times.sort()
        let step = Int64(2_940 / max(youngCount, 1))
        for k in 0..<youngCount { times.append(end - 3_000 + Int64(k) * step) }
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

    /// Charge index → late-outcome plan (``ChargePlan/late()``, and ``ChargePlan/lateMovesByHand()`` when asked): the charges created just before `end − 1 day − 2 h`
    /// that no guaranteed plan takes, moved into `[end − 2 days + 1 h, end − 1 day − 2 h)` if they were created
    /// before it (only in a sparse world; times stay sorted). None in a world of fewer than 200 charges or of less
    /// than three days. Draws nothing, so the rest of the world keeps its random values.
    private func lateOutcomeSlots(_ times: inout [Int64], avoiding plannedAt: [Int: ChargePlan]) -> [Int: ChargePlan] {
        let day: Int64 = 86_400
        let plans =
            ChargePlan.late() + (movesByHand ? ChargePlan.lateMovesByHand() : [])
            + (otherMoney ? ChargePlan.lateOtherMoney() : [])
        let regular = chargeCount - youngCount
        let earliest = end - 2 * day + 3_600
        let latest = end - day - 7_200
        guard chargeCount >= 200, end - start >= 3 * day else { return [:] }
        var chosen: [Int] = []
        var index = (times[..<regular].firstIndex { $0 >= latest } ?? regular) - 1
        while chosen.count < plans.count, index >= 0 {
            if plannedAt[index] == nil { chosen.append(index) }
            index -= 1
        }
        guard let first = chosen.last, let last = chosen.first, chosen.count == plans.count else { return [:] }
        for moved in first...last { times[moved] = max(times[moved], earliest + Int64(moved - first) * 60) }
        var slots: [Int: ChargePlan] = [:]
        for (plan, slot) in zip(plans, chosen.reversed()) { slots[slot] = plan }
        return slots
    }

    /// The plan of charge `index`: young, guaranteed or drawn at random.
    private func plan(for index: Int, plannedAt: [Int: ChargePlan], rng: inout SplitMix64) -> ChargePlan {
        let regular = chargeCount - youngCount
        guard index < regular else {
            var plan = ChargePlan()
            plan.method = .cardAsyncCapture
            if index - regular < 2 {
                plan.style = index % 2 == 0 ? .transferAmount : .applicationFee
                plan.tags = [.youngCharge]
            } else {
                plan.style = (index - regular) % 2 == 0 ? .applicationFee : .transferAmount
                plan.partsPending = true
                plan.tags = [.youngChargeMissingParts]
            }
            return plan
        }
        if let planned = plannedAt[index] { return planned }
        // The platform's other money: one charge in 89 an account debit, one a payment from an account's balance.
        if otherMoney, let method = [17: PaymentMethodKind.accountDebit, 61: .stripeBalance][index % 89] {
            var plan = ChargePlan()
            plan.method = method
            plan.currency = .usd
            return plan
        }
        var plan = ChargePlan.random(&rng)
        // Drawn from a stream of its own, so that a world without separately transferred charges keeps its values.
        if transferGroupShare > 0 {
            var groupRNG = SplitMix64(seed: SplitMix64.mix(seed ^ 0x7E5A_9A00) &+ UInt64(index))
            if groupRNG.chance(transferGroupShare) { plan.makeSeparatelyTransferred(&groupRNG) }
        }
        return plan
    }

    private func generateSeparateTransfers(_ rng: inout SplitMix64) {
        let count = max(2, chargeCount / 100)
        for _ in 0..<count {
            let currency: WorldCurrency = rng.chance(0.8) ? .usd : .gbp
            let index = addTransfer(
                rng.int(start...(end - 1)), amount: rng.int(1_000...80_000), currency: currency,
                settlement: currency.settlement, rate: 0, destination: Int16(rng.int(0...(accountCount - 1))),
                sourceCharge: -1, role: .separate)
            tag(.bonusTransfer, .transfer, Int(index))
        }
    }

    /// Card spends of the platform's Issuing program: `issuing_transaction` balance transactions of the `issuing`
    /// balance, in usd, with no source the world serves.
    private func generateIssuingTransactions(_ rng: inout SplitMix64) {
        for _ in 0..<max(2, chargeCount / 1_000) {
            let index = addBT(
                rng.int(start...(end - 1)), .issuingTransaction, amount: -rng.int(500...20_000), currency: .usd,
                rate: 0, source: .charge, -1, balance: .issuing)
            tag(.issuingTransaction, .balanceTransaction, Int(index))
        }
    }

    /// The currency connected account `account` settles in, `nil` for an account that settles in each charge's own
    /// currency (a domestic account): one account in ten settles in jpy and one in twenty in gbp.
    static func settlementCurrency(ofAccount account: Int) -> WorldCurrency? {
        switch account % 20 {
        case 3, 13: .jpy
        case 6: .gbp
        default: nil
        }
    }

    /// The destination account of a charge in `currency`: `drawn`, or the first account from it on (wrapping
    /// around) that settles as `choice` asks.
    func account(_ drawn: Int, _ choice: ChargePlan.Account, currency: WorldCurrency) -> Int16 {
        let wanted: (WorldCurrency?) -> Bool
        switch choice {
        case .any: return Int16(drawn)
        case .domestic: wanted = { $0 == nil || $0 == currency }
        case .settlesIn(let settlement): wanted = { $0 == settlement }
        }
        for offset in 0..<accountCount {
            let candidate = (drawn + offset) % accountCount
            if wanted(Self.settlementCurrency(ofAccount: candidate)) { return Int16(candidate) }
        }
        return Int16(drawn)
    }

    /// Whole days since the world's start.
    func dayOf(_ time: Int64) -> Int64 { (time - start) / 86_400 }
}
