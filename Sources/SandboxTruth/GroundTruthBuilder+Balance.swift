import ReconCore
import Sandbox

extension GroundTruthBuilder {
    /// The roll-forward of every balance (docs/RULES.md, "The books close"), from the world's tables and its
    /// definition alone: the world starts with nothing, so the balance at a moment is the `net` of every balance
    /// transaction dated before it (at its `created`, an automatic payout's own transaction at its `available_on`),
    /// and Stripe's balance at the world's clock is the `net` of every transaction created before it. No snapshot is
    /// carried anywhere: what the reconciler reaches by anchoring on Stripe's balance, this adds up from the start.
    ///
    /// One row per currency and balance type that moved in the range or holds something at its start or end;
    /// `stripeReport` is `not_compared` and `continuityDifference` 0 (a complete history is continuous).
    mutating func addBalance() {
        let bts = storage.balanceTransactions
        let payouts = storage.payouts
        var automaticPayoutTransaction = Set<Int32>()
        for p in payouts.created.indices where payouts.automatic[p] {
            automaticPayoutTransaction.insert(payouts.balanceTransaction[p])
        }
        let clock = storage.end
        struct Figures {
            var starting: Int64 = 0
            var categories: [String: Int64] = [:]
            var moved = false
            var ending: Int64 = 0
            var stripe: Int64 = 0
            var inTransit: Int64 = 0
        }
        var figures: [BalanceKey: Figures] = [:]
        for b in bts.created.indices where bts.created[b] < clock {
            let key = BalanceKey(
                currency: bts.currency[b].currency, balanceType: BalanceType(rawValue: bts.balanceType[b].name))
            let net = bts.amount[b] - bts.fee[b]
            let dated = automaticPayoutTransaction.contains(Int32(b)) ? bts.availableOn[b] : bts.created[b]
            var entry = figures[key] ?? Figures()
            entry.stripe += net
            if dated < from { entry.starting += net }
            if dated < to { entry.ending += net }
            if dated >= clock { entry.inTransit -= net }
            if from <= dated, dated < to {
                entry.categories[bts.type[b].reportingCategory, default: 0] += net
                entry.moved = true
            }
            figures[key] = entry
        }
        truth.balance = figures.compactMap { key, entry -> BalanceRow? in
            guard entry.moved || entry.starting != 0 || entry.ending != 0 else { return nil }
            let payoutCategories: Set<String> = ["payout", "payout_reversal"]
            let activity = entry.categories.filter { !payoutCategories.contains($0.key) }
            return BalanceRow(
                currency: key.currency, balanceType: key.balanceType, startingBalance: entry.starting,
                activity: activity.values.reduce(0, +),
                activityByCategory: activity.sorted { $0.key < $1.key }.map {
                    BalanceRow.CategoryNet(category: ReportingCategory(rawValue: $0.key), net: $0.value)
                },
                payouts: entry.categories.filter { payoutCategories.contains($0.key) }.values.reduce(0, +),
                endingBalance: entry.ending, inTransitPayouts: entry.inTransit, stripeBalance: entry.stripe,
                stripeBalanceAt: clock, continuityDifference: 0, stripeReport: .notCompared,
                stripeReportDifference: nil)
        }.sorted {
            BalanceKey(currency: $0.currency, balanceType: $0.balanceType)
                < BalanceKey(currency: $1.currency, balanceType: $1.balanceType)
        }
    }
}
