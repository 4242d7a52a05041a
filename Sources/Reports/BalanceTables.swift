import ReconCore

// MARK: - balance.csv and the Balance sheet (docs/REPORTS.md)

extension ReportTable {
    static let balanceColumns = [
        Column("currency", .text), Column("balance_type", .text), Column("starting_balance", .amount),
        Column("activity", .amount), Column("payouts", .amount), Column("ending_balance", .amount),
        Column("in_transit_payouts", .amount), Column("stripe_balance", .amount), Column("stripe_balance_at", .time),
        Column("continuity_difference", .amount), Column("stripe_report", .text),
        Column("stripe_report_difference", .amount),
    ]

    /// `balance.csv`: one row per currency and balance type.
    static func balance(_ rows: [BalanceRow]) -> ReportTable {
        ReportTable(
            fileName: "balance.csv", sheetName: BalanceSheet.name, columns: balanceColumns, rowCount: rows.count
        ) { index, cells in
            let row = rows[index]
            cells.append(.text(row.currency.rawValue))
            cells.append(.text(row.balanceType.rawValue))
            cells.append(.amount(row.startingBalance, row.currency))
            cells.append(.amount(row.activity, row.currency))
            cells.append(.amount(row.payouts, row.currency))
            cells.append(.amount(row.endingBalance, row.currency))
            cells.append(.amount(row.inTransitPayouts, row.currency))
            cells.append(.amount(row.stripeBalance, row.currency))
            cells.append(row.stripeBalanceAt.map(Cell.time) ?? .empty)
            cells.append(.amount(row.continuityDifference, row.currency))
            cells.append(.text(row.stripeReport.rawValue))
            cells.append(.amount(row.stripeReportDifference, row.currency))
        }
    }
}

/// The workbook's Balance sheet, second after the Summary: the roll-forward as finance reads a balance report, one
/// column per currency and balance type, its lines down: the starting balance, the activity by reporting category
/// and in total, the payouts, the ending balance; then the proofs (Stripe's balance it is anchored on, the payouts
/// in transit, continuity, Stripe's own report) and whether the books close.
enum BalanceSheet {
    static let name = "Balance"

    /// One line of the sheet: its label and its cell in each column.
    private struct Line {
        let label: String
        let cell: (BalanceRow) -> Cell
    }

    /// The sheet as a table whose rows are the lines and whose columns are the balances.
    static func table(_ rows: [BalanceRow]) -> ReportTable {
        let categories = Set(rows.flatMap { $0.activityByCategory.map(\.category) }).sorted {
            $0.rawValue < $1.rawValue
        }
        var lines: [Line] = [Line(label: "Starting balance") { .amount($0.startingBalance, $0.currency) }]
        for category in categories {
            lines.append(
                Line(label: "   \(category.rawValue)") { row in
                    .amount(
                        row.activityByCategory.first { $0.category == category }?.net ?? 0, row.currency)
                })
        }
        lines += [
            Line(label: "Activity") { .amount($0.activity, $0.currency) },
            Line(label: "Payouts") { .amount($0.payouts, $0.currency) },
            Line(label: "Ending balance") { .amount($0.endingBalance, $0.currency) },
            Line(label: "") { _ in .empty },
            Line(label: "Stripe's balance (GET /v1/balance)") { .amount($0.stripeBalance, $0.currency) },
            Line(label: "   read at (UTC)") { $0.stripeBalanceAt.map(Cell.time) ?? .empty },
            Line(label: "   automatic payouts in transit") { .amount($0.inTransitPayouts, $0.currency) },
            Line(label: "Continuity: starting balance less the earlier snapshots'") { row in
                row.continuityDifference.map { .amount($0, row.currency) } ?? .text("no earlier snapshot")
            },
            Line(label: "Stripe's Balance report") { .text($0.stripeReport.rawValue) },
            Line(label: "   ending balance less Stripe's") { .amount($0.stripeReportDifference, $0.currency) },
            Line(label: "The books close") { .text(BooksClose.verdict($0)) },
        ]
        var columns = [Column("line", .text)]
        columns += rows.map { Column("\($0.currency.rawValue)_\($0.balanceType.rawValue)", .amount, label: header($0)) }
        return ReportTable(
            fileName: "balance.csv", sheetName: name, columns: columns, rowCount: lines.count
        ) { index, cells in
            let line = lines[index]
            cells.append(.text(line.label))
            for row in rows { cells.append(line.cell(row)) }
        }
    }

    /// `USD payments`.
    static func header(_ row: BalanceRow) -> String {
        "\(row.currency.rawValue.uppercased()) \(row.balanceType.rawValue)"
    }
}

/// Whether the books close, in words: the Balance sheet's last line and the Summary's lines.
enum BooksClose {
    /// `yes`, or `no: ` and why, for one balance.
    static func verdict(_ row: BalanceRow) -> String {
        if row.closes {
            return row.continuityDifference == nil ? "yes (no earlier snapshot to prove continuity)" : "yes"
        }
        return "no: " + reason(row)
    }

    /// Why `row` does not close.
    static func reason(_ row: BalanceRow) -> String {
        let currency = row.currency
        if row.endingBalance == nil {
            return "no read of Stripe's \(row.balanceType.rawValue) balance reaches the range's end (connect-recon run "
                + "reads it; for a range more than a week old, extract the days since first)"
        }
        if let difference = row.continuityDifference, difference != 0 {
            return "the \(row.balanceType.rawValue) balance is not continuous with the earlier runs' (off by "
                + "\(Money(minorUnits: difference, currency: currency))): see balance_not_continuous"
        }
        if row.stripeReport == .differs {
            let off = row.stripeReportDifference.map {
                " (ending balance off by \(Money(minorUnits: $0, currency: currency)))"
            }
            return "Stripe's Balance report differs\(off ?? ""): see stripe_report_mismatch"
        }
        return "unknown"
    }

    /// One line per currency for the Summary: whether every balance of the currency closes, and why not.
    static func summaryLines(_ rows: [BalanceRow]) -> [String] {
        let currencies = Set(rows.map(\.currency)).sorted { $0.rawValue < $1.rawValue }
        return currencies.map { currency in
            let balances = rows.filter { $0.currency == currency }
            let code = currency.rawValue.uppercased()
            if let failing = balances.first(where: { !$0.closes }) {
                return "\(code): the books do not close: \(reason(failing))."
            }
            var notes: [String] = []
            if balances.contains(where: { $0.continuityDifference == nil }) {
                notes.append("continuity not proven (no earlier snapshot)")
            }
            let payments = balances.first { $0.balanceType == .payments }
            switch payments?.stripeReport {
            case .agrees?: notes.append("Stripe's Balance report agrees")
            case .notYetPublished?: notes.append("Stripe's Balance report not published yet (a later run compares it)")
            case .notPermitted?: notes.append("the key may not run Stripe's reports")
            default: break
            }
            return "\(code): the books close" + (notes.isEmpty ? "." : " (" + notes.joined(separator: "; ") + ").")
        }
    }
}
