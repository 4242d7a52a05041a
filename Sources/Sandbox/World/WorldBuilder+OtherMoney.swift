import Foundation

extension WorldBuilder {
    /// The platform's other money (docs/RULES.md, "The platform's other money"): Stripe's costs outside charges, as
    /// a platform on IC+ pricing sees them. Drawn from a random stream of their own, so the rest of the world keeps its
    /// values. For each UTC day `D` of the world:
    /// - usd `Card payments (D): Stripe volume fees` and `…: Stripe per-authorization fees`, billed the next day at
    ///   03:00–04:00; gbp volume fees, the same way;
    /// - usd `Card payments (D): Transaction network costs` (`network_cost`), billed 2 to 6 days later (one day in seven,
    ///   20 to 60 days later);
    /// - every fourth day, a usd credit of fees assessed earlier, billed two days later;
    /// and once: a month of Connect fees (`Connect (M-01 - M-last): Account Volume Billing`) billed on the world's
    /// second day for the month before it, a cost naming no day (`Radar: Standard`) and volume fees whose date no
    /// calendar has (`2026-02-30`): both counted on the day they were created. Only what is billed before the world's
    /// end exists.
    func generateOtherMoney() {
        var rng = SplitMix64(seed: SplitMix64.mix(seed ^ 0x07E2_3000))
        let day: Int64 = 86_400
        let firstDay = start - ((start % day) + day) % day
        func bill(_ created: Int64, _ type: BTType, _ amount: Int64, _ currency: WorldCurrency, _ cost: WorldStripeCost)
        {
            guard created >= start, created < end else { return }
            let index = addBT(created, type, amount: amount, currency: currency, rate: 0, source: .charge, -1)
            bts.stripeCosts[index] = cost
        }
        var named = firstDay
        var dayNumber = 0
        while named < end {
            let billed = named + day + 3 * 3_600 + rng.int(0...3_599)
            bill(billed, .stripeFee, -rng.int(1_000...9_000), .usd, WorldStripeCost(kind: .volumeFees, namedDay: named))
            bill(
                billed + 60, .stripeFee, -rng.int(100...900), .usd,
                WorldStripeCost(kind: .perAuthorizationFees, namedDay: named))
            bill(
                billed + 120, .stripeFee, -rng.int(200...2_000), .gbp,
                WorldStripeCost(kind: .volumeFees, namedDay: named))
            let late: Int64 = dayNumber % 7 == 3 ? rng.int(20...60) : rng.int(2...6)
            bill(
                named + late * day + 5 * 3_600, .networkCost, -rng.int(300...3_000), .usd,
                WorldStripeCost(kind: .networkCosts, namedDay: named))
            if dayNumber % 4 == 0 {
                bill(
                    named + 2 * day + 4 * 3_600, .stripeFee, rng.int(50...400), .usd,
                    WorldStripeCost(kind: .feeCredit, namedDay: named))
            }
            named += day
            dayNumber += 1
        }
        let monthEnd = firstDay - day
        let monthStart = Self.firstOfMonth(monthEnd)
        bill(
            firstDay + day + 6 * 3_600, .stripeFee, -rng.int(5_000...20_000), .usd,
            WorldStripeCost(kind: .connectBilling, namedDay: monthStart, namedEnd: monthEnd))
        bill(firstDay + day + 7 * 3_600, .stripeFee, -rng.int(300...800), .usd, WorldStripeCost(kind: .radarUndated))
        bill(
            firstDay + 2 * day + 8 * 3_600, .stripeFee, -rng.int(100...500), .usd,
            WorldStripeCost(kind: .volumeFees, namedDay: firstDay, unparseable: true))
        generateCollectionsAndReserves(&rng)
    }

    /// Losses the platform covers and Connect reserve movements: every third day Stripe collects from the platform
    /// for a connected account that stayed negative (a `connect_collection_transfer`, usd, its source naming the
    /// account), on the fifth day one whose source names none; every fourth day a reserve hold, released two days
    /// later (`reserve_transaction`, category `connect_reserved_funds`: never a loss).
    private func generateCollectionsAndReserves(_ rng: inout SplitMix64) {
        let day: Int64 = 86_400
        var collections = 0
        for dayNumber in 0..<Int((end - start) / day) {
            let noon = start + Int64(dayNumber) * day + 12 * 3_600
            if dayNumber % 3 == 1 || dayNumber == 4 {
                let account: Int16 = dayNumber == 4 ? -1 : Int16(rng.int(0...(accountCount - 1)))
                let created = noon + rng.int(0...3_599)
                if created < end {
                    let index = addBT(
                        created, .connectCollectionTransfer, amount: -rng.int(1_000...15_000), currency: .usd,
                        rate: 0, source: .charge, -1)
                    bts.collections[index] = WorldCollection(index: collections, account: account)
                    collections += 1
                }
            }
            if dayNumber % 4 == 2 {
                let held: Int64 = rng.int(2_000...8_000)
                for (at, amount) in [(noon + 3_600, -held), (noon + 2 * day + 3_600, held)] where at < end {
                    _ = addBT(at, .reserveTransaction, amount: amount, currency: .usd, rate: 0, source: .charge, -1)
                }
            }
        }
    }

    /// Charge index → the account debits that give back the late plans' refund shares and dispute
    /// (``ChargePlan/lateOtherMoney()``): charges of the world's last day (between `end − 1 day + 1 h` and
    /// `end − 2 h`) that no other plan takes, made account debits of the late charges' sellers: 40.00 naming the
    /// charge, 40.00 naming nothing, 40.00 made with a transfer that names the charge, 100.00 naming the dispute. None when the late plans have no slots.
    func debitSlots(_ times: [Int64], avoiding plannedAt: [Int: ChargePlan]) -> [Int: ChargePlan] {
        func late(_ tag: SandboxScenario) -> Int? { plannedAt.first { $0.value.tags.contains(tag) }?.key }
        guard let recovered = late(.lateRefundRecoveredByDebit), let unlinked = late(.lateRefundDebitedUnlinked),
            let byTransfer = late(.lateRefundRecoveredByTransferDebit),
            let disputed = late(.lateDisputeRecoveredByDebit)
        else { return [:] }
        let links: [(WorldDebitLink, Int64)] = [
            (.chargeRefund(recovered), 4_000), (.unlinked(unlinked), 4_000),
            (.chargeRefundByTransfer(byTransfer), 4_000),
            (.dispute(disputed), 10_000),
        ]
        let lower = end - 86_400 + 3_600
        let upper = end - 7_200
        let free = times.indices.filter { times[$0] >= lower && times[$0] < upper && plannedAt[$0] == nil }
        guard free.count >= links.count else { return [:] }
        var slots: [Int: ChargePlan] = [:]
        for (k, (link, amount)) in links.enumerated() {
            var plan = ChargePlan()
            plan.method = .accountDebit
            plan.currency = .usd
            plan.amount = amount
            plan.debitOf = link
            slots[free[k * free.count / links.count]] = plan
        }
        return slots
    }

    /// UTC midnight of the first day of the month holding `seconds`.
    static func firstOfMonth(_ seconds: Int64) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let date = Date(timeIntervalSince1970: Double(seconds))
        let first = calendar.dateInterval(of: .month, for: date)?.start ?? date
        return Int64(first.timeIntervalSince1970)
    }
}
