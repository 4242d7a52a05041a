import ReconCore

// MARK: - Stripe's costs outside charges (docs/RULES.md, "The platform's other money")

extension ReportBuilder {
    /// The range's balance transactions that are Stripe's costs (``StripeCost``): those the part judges, and
    /// `transactions` (read beside the ledger's totals, see ``ReconciliationInput/stripeCostTransactions``), each
    /// added once to its row of `stripe_costs.csv` (the day its description names, else its local `created` day;
    /// currency; kind) and to the Summary's `stripe_costs`. A sum that would overflow leaves the cost out and is
    /// reported.
    mutating func stripeCosts(_ transactions: [BalanceTransactionFacts]) {
        // A part that judges no balance transaction (most: they are judged in the ledger's part) has none to scan.
        let judged =
            index.judged.map { $0[.balanceTransaction].isEmpty } ?? false
            ? [] : index.balanceTransactions.filter { index.judges($0) }
        for transaction in judged + transactions {
            guard let cost = StripeCost(transaction), countedStripeCosts.insert(cost.id).inserted else { continue }
            let day = cost.namedDay ?? localDay(of: cost.created)
            let key = StripeCostKey(day: day, currency: cost.currency, kind: cost.kind)
            var row =
                stripeCostRows[key]
                ?? StripeCostRow(day: day, currency: cost.currency, kind: cost.kind, count: 0, amount: 0)
            guard let amount = Checked.add(row.amount, cost.amount),
                Checked.add(summary[cost.currency]?.stripeCosts ?? 0, cost.amount) != nil
            else {
                overflow(cost.id, currency: cost.currency, created: cost.created, what: "Stripe costs total")
                continue
            }
            row.count += 1
            row.amount = amount
            stripeCostRows[key] = row
            addToSummary(
                cost.currency, \.stripeCosts, cost.amount, objectID: cost.id, created: cost.created,
                what: "Stripe costs")
        }
    }

    /// The local date of `created` in the report's days (the first day for a moment before them, the last for one
    /// after: a cost is created in the range, so neither happens).
    private func localDay(of created: Int64) -> String {
        guard let days, !days.days.isEmpty else {
            return ReportingDays.utc(from: created, to: created + 1).days[0].date
        }
        let index = days.index(of: created) ?? (created < days.days[0].start ? 0 : days.days.count - 1)
        return days.days[index].date
    }
}

/// A `stripe_costs.csv` row's identity.
struct StripeCostKey: Hashable {
    var day: String
    var currency: Currency
    var kind: String
}
