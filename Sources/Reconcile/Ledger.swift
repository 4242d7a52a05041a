import ReconCore

// MARK: - Ledger: the range's balance transactions per currency, balance type and reporting category

extension ReportBuilder {
    /// Balance transactions created in the range, grouped by (currency, `balance_type`, `reporting_category`; a
    /// transaction without `balance_type` is `payments`): count, gross
    /// (Σ amount), fee (Σ fee), net (Σ net). A transaction whose figures would overflow a total is left out of its
    /// group and reported.
    mutating func ledger() {
        let judged = index.balanceTransactions.filter {
            index.judges($0.id, \.balanceTransactions, created: $0.created)
        }
        for bt in judged.sorted(by: { ($0.created, $0.id) < ($1.created, $1.id) }) {
            let key = LedgerKey(
                currency: bt.currency, balanceType: bt.ledgerBalanceType, category: bt.reportingCategory)
            var row =
                ledgerGroups[key]
                ?? LedgerRow(
                    currency: bt.currency, balanceType: key.balanceType, reportingCategory: key.category,
                    count: 0, gross: 0, fee: 0, net: 0)
            guard let gross = Checked.add(row.gross, bt.amount), let fee = Checked.add(row.fee, bt.fee),
                let net = Checked.add(row.net, bt.net)
            else {
                overflow(
                    bt.id, currency: bt.currency, created: bt.created, what: "\(bt.reportingCategory) ledger total")
                continue
            }
            row.count += 1
            row.gross = gross
            row.fee = fee
            row.net = net
            ledgerGroups[key] = row
        }
    }
}

/// A ledger row's identity.
struct LedgerKey: Hashable {
    var currency: Currency
    var balanceType: BalanceType
    var category: ReportingCategory
}
