import ReconCore

// MARK: - The books close: the balance rolled forward over the range, and its proofs (docs/RULES.md)

extension ReportBuilder {
    /// The reporting categories of payouts: what left for the bank, and what came back from it.
    static let payoutCategories: Set<ReportingCategory> = [.payout, .payoutReversal]

    /// The balance Stripe's Balance report covers: the others are proven by continuity alone.
    static let reportedBalanceType = BalanceType.payments

    /// Rolls each currency and balance type forward over the range: `ending` from the snapshot carried back to `to`,
    /// `starting = ending − activity − payouts`; continuity against the earlier snapshot carried to `from`; Stripe's
    /// own report where it was had. Raises `balance_not_continuous` and `stripe_report_mismatch`.
    mutating func balance(_ inputs: BalanceInputs?, from: Int64) {
        guard let inputs else { return }
        var keys = Set(inputs.dated.keys)
        if let ending = inputs.ending { keys.formUnion(ending.keys) }
        for key in inputs.overflowed.union(inputs.ending?.overflowed ?? []).sorted() {
            keys.remove(key)
            overflow(
                "\(key.currency.rawValue)/\(key.balanceType.rawValue)", currency: key.currency, created: from,
                what: "balance roll-forward")
        }
        for key in keys.sorted() {
            // A balance that held nothing and moved nothing (an Issuing balance in a currency it never used) is no
            // line of the report.
            if inputs.dated[key] == nil, (inputs.ending?.balance(key) ?? 0) == 0,
                (inputs.earlier?.balance(key) ?? 0) == 0
            {
                continue
            }
            guard var row = rolledForward(key, inputs) else {
                overflow(
                    "\(key.currency.rawValue)/\(key.balanceType.rawValue)", currency: key.currency, created: from,
                    what: "balance roll-forward")
                continue
            }
            if let continuity = row.continuityDifference, continuity != 0, let starting = row.startingBalance,
                let implied = Checked.subtract(starting, continuity)
            {
                let objectID = "\(key.currency.rawValue)/\(key.balanceType.rawValue)/\(inputs.rangeName)"
                exception(
                    .balanceNotContinuous, objectID, related: nil, currency: key.currency, created: from,
                    expected: .amount(implied), actual: .amount(starting),
                    message: "The \(key.balanceType.rawValue) balance in \(key.currency.rawValue.uppercased()) at the "
                        + "range's start is \(describe(starting, key.currency)) from the history, but Stripe's "
                        + "earlier balance carried to that moment says \(describe(implied, key.currency)): a balance "
                        + "transaction the history never saw, or one Stripe changed. Run the days around it again "
                        + "(connect-recon run --from … --to …) and compare with Stripe's Balance report.")
            }
            if key.balanceType == Self.reportedBalanceType, let comparison = inputs.stripeReports[key.currency] {
                compare(&row, with: comparison, rangeName: inputs.rangeName, from: from)
            }
            balanceRows.append(row)
        }
    }

    /// Earlier ranges whose Stripe report this run found published: each currency's `payments` balance is rolled
    /// forward as that range's report did and compared, its findings dated with the range; a range that differs is
    /// named out of date. No row: the range's own report holds its rows.
    mutating func lateBalanceComparisons(_ comparisons: [LateBalanceComparison]) {
        for late in comparisons {
            var differs = false
            for (currency, comparison) in late.inputs.stripeReports.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                guard case .published = comparison,
                    var row = rolledForward(
                        BalanceKey(currency: currency, balanceType: Self.reportedBalanceType), late.inputs)
                else { continue }
                compare(&row, with: comparison, rangeName: late.inputs.rangeName, from: late.from)
                differs = differs || row.stripeReport == .differs
            }
            if differs { staleReportRanges.append(StaleReportRange(from: late.from, to: late.to)) }
        }
    }

    /// The row of balance `key` rolled forward over the range of `inputs`, continuity included, Stripe's report not
    /// yet compared; `nil` when a figure does not fit in 64 bits.
    private func rolledForward(_ key: BalanceKey, _ inputs: BalanceInputs) -> BalanceRow? {
        var activity: Int64 = 0
        var payouts: Int64 = 0
        var byCategory: [BalanceRow.CategoryNet] = []
        for (category, net) in (inputs.dated[key] ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if Self.payoutCategories.contains(category) {
                guard let sum = Checked.add(payouts, net) else { return nil }
                payouts = sum
            } else {
                byCategory.append(BalanceRow.CategoryNet(category: category, net: net))
                guard let sum = Checked.add(activity, net) else { return nil }
                activity = sum
            }
        }
        let ending = inputs.ending?.balance(key)
        let starting = ending.flatMap { Checked.subtract($0, activity) }.flatMap { Checked.subtract($0, payouts) }
        var continuity: Int64?
        if let starting, let implied = inputs.earlier?.balance(key) { continuity = Checked.subtract(starting, implied) }
        return BalanceRow(
            currency: key.currency, balanceType: key.balanceType, startingBalance: starting, activity: activity,
            activityByCategory: byCategory, payouts: payouts, endingBalance: ending,
            inTransitPayouts: inputs.ending.map { $0.inTransit[key] ?? 0 },
            stripeBalance: inputs.ending?.snapshot.amount(key), stripeBalanceAt: inputs.ending?.snapshot.takenAt,
            continuityDifference: continuity, stripeReport: .notCompared, stripeReportDifference: nil)
    }

    /// Compares `row` with Stripe's report of its currency: every figure and every activity category must agree
    /// to the minor unit.
    private mutating func compare(
        _ row: inout BalanceRow, with comparison: StripeReportComparison, rangeName: String, from: Int64
    ) {
        switch comparison {
        case .notYetPublished:
            row.stripeReport = .notYetPublished
        case .notPermitted:
            row.stripeReport = .notPermitted
        case .unavailable:
            row.stripeReport = .notCompared
        case .published(let balance, let activity):
            let currency = row.currency
            var differences: [(report: String, line: String, stripe: Int64, ours: Int64?)] = []
            let summary = "balance.summary.1"
            // Without an ending balance (the range is not anchored) only the range's own movements are compared.
            for (line, theirs, ours) in [
                ("starting_balance", balance.starting, row.startingBalance),
                ("activity", balance.activity, Optional(row.activity)),
                ("payouts", balance.payouts, Optional(row.payouts)),
                ("ending_balance", balance.ending, row.endingBalance),
            ] where ours != nil && ours != theirs {
                differences.append((summary, line, theirs, ours))
            }
            let ourCategories = Dictionary(
                row.activityByCategory.map { ($0.category.rawValue, $0.net) }, uniquingKeysWith: { first, _ in first })
            let theirCategories = activity.net
            for category in Set(ourCategories.keys).union(theirCategories.keys).sorted() {
                let theirs = theirCategories[category] ?? 0
                let ours = ourCategories[category] ?? 0
                if theirs != ours {
                    differences.append(("balance_change_from_activity.summary.1", category, theirs, ours))
                }
            }
            row.stripeReport = differences.isEmpty ? .agrees : .differs
            row.stripeReportDifference = row.endingBalance.flatMap { Checked.subtract($0, balance.ending) }
            for difference in differences {
                let objectID = "\(difference.report)/\(currency.rawValue)/\(rangeName)/\(difference.line)"
                let ours = difference.ours.map { describe($0, currency) } ?? "unknown"
                exception(
                    .stripeReportMismatch, objectID, related: nil, currency: currency, created: from,
                    expected: .amount(difference.stripe), actual: difference.ours.map { .amount($0) },
                    message: "Stripe's \(difference.report) says \(difference.line) is "
                        + "\(describe(difference.stripe, currency)) but the history's balance transactions give "
                        + "\(ours): re-run the range (Stripe may have changed a transaction since), and if it "
                        + "persists compare Stripe's itemized Balance report with ledger.csv.")
            }
        }
    }
}
