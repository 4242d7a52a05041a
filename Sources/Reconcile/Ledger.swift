import ReconCore

// MARK: - Ledger: the range's balance transactions per currency, balance type and reporting category

extension ReportBuilder {
    /// Balance transactions created in the range, grouped by (currency, `balance_type`, `reporting_category`; a
    /// transaction without `balance_type` is `payments`): count, gross
    /// (Σ amount), fee (Σ fee), net (Σ net). A transaction whose figures would overflow a total is left out of its
    /// group and reported. Totals the history added up (`totals`, see ``ReconciliationInput/ledgerTotals``) are
    /// added as they are.
    mutating func ledger(_ totals: [LedgerRow]) {
        for total in totals where !add(total) {
            // The history sends a group's totals once, and only totals that fit: this guards against a caller
            // that sends them twice.
            overflow(
                total.reportingCategory.rawValue, currency: total.currency, created: index.from,
                what: "\(total.reportingCategory) ledger total")
        }
        // A part that judges no balance transaction (every part but the ledger's pages) adds none one by one.
        if let scope = index.judged, scope[.balanceTransaction].isEmpty { return }
        let judged = index.balanceTransactions.filter {
            index.judges($0)
        }
        for bt in judged.sorted(by: { ($0.created, $0.id) < ($1.created, $1.id) }) {
            let one = LedgerRow(
                currency: bt.currency, balanceType: bt.ledgerBalanceType, reportingCategory: bt.reportingCategory,
                count: 1, gross: bt.amount, fee: bt.fee, net: bt.net)
            if !add(one) {
                overflow(
                    bt.id, currency: bt.currency, created: bt.created, what: "\(bt.reportingCategory) ledger total")
            }
        }
    }

    /// Adds `figures` to their group; `false`, and the group unchanged, when a total would overflow.
    private mutating func add(_ figures: LedgerRow) -> Bool {
        let key = LedgerKey(
            currency: figures.currency, balanceType: figures.balanceType, category: figures.reportingCategory)
        guard var row = ledgerGroups[key] else {
            ledgerGroups[key] = figures
            return true
        }
        guard let gross = Checked.add(row.gross, figures.gross), let fee = Checked.add(row.fee, figures.fee),
            let net = Checked.add(row.net, figures.net)
        else { return false }
        row.count += figures.count
        row.gross = gross
        row.fee = fee
        row.net = net
        ledgerGroups[key] = row
        return true
    }
}

/// A ledger row's identity.
struct LedgerKey: Hashable {
    var currency: Currency
    var balanceType: BalanceType
    var category: ReportingCategory
}
