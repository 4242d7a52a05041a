import Foundation
import ReconCore

/// The check block under the Summary sheet's rows (XLSX only; `summary.csv` is exactly the reconciler's rows).
///
/// The summary rows are the reconciler's totals per currency and are written as given. Below them, one row
/// per currency repeats the totals that are plain sums or counts of a detail column, as Excel formulas
/// (`SUMIF`/`COUNTIF` over the detail sheets, continuation sheets included), so the finance team can see the
/// detail add up to the summary and the figures update if they edit a detail row. Each formula carries its
/// result as the cell's cached value, for readers that do not calculate (previewers, openpyxl): that result
/// is the one sum this module makes, in integer minor units of one currency, overflow-checked (a sum that
/// would overflow gets no formula). `stripe_fee` is counted in the settlement currency, so its check sums the
/// `stripe_fee` of the platform-fee rows whose `settlement_currency` is the row's currency.
///
/// A second block repeats the totals from the Connected accounts sheet (its statements add up to the summary), and
/// a third block is added the same way for any other sheet whose rows add up to the summary.
enum SummaryChecks {
    /// One block of check rows: where each summary column's check sums from, and the cached results.
    struct Block {
        let note: String
        fileprivate let sources: [String: Source]
        var totals: Totals
    }

    /// The totals summed from the detail sheets the summary's figures come from.
    static func detailBlock(_ totals: Totals) -> Block {
        Block(
            note: "Check: the same totals summed from the detail sheets (formulas), one row per currency; "
                + "compare with the totals above.",
            sources: detailSources, totals: totals)
    }

    /// The totals summed from the connected accounts' statements.
    static func connectedAccountsBlock(_ rows: [ConnectedAccountRow]) -> Block {
        var totals = Totals()
        for row in rows { totals.add(row) }
        return Block(
            note: "Check: the same totals summed from the Connected accounts sheet (formulas); "
                + "the statements add up to the totals above.",
            sources: connectedAccountSources, totals: totals)
    }

    /// A detail column summed (or counted) into one summary column.
    fileprivate struct Source: Sendable {
        let table: String
        /// The column holding the currency the detail amount is counted in.
        var criteriaColumn = "currency"
        /// The column summed; `nil`: the rows are counted.
        let sumColumn: String?
        /// Whether the sum is a count (its cached result is a whole number, not an amount).
        var counts = false
    }

    /// Summary column → where its check sums from (the detail sheets).
    private static let detailSources: [String: Source] = [
        "destination_charges": Source(table: "platform_fees.csv", sumColumn: nil),
        "gross": Source(table: "platform_fees.csv", sumColumn: "amount"),
        "refunded": Source(table: "platform_fees.csv", sumColumn: "amount_refunded"),
        "destination_platform_fee": Source(table: "platform_fees.csv", sumColumn: "destination_platform_fee"),
        "stripe_fee": Source(
            table: "platform_fees.csv", criteriaColumn: "settlement_currency", sumColumn: "stripe_fee"),
        "skipped_transfers": Source(table: "skipped_transfers.csv", sumColumn: nil),
        "amount_owed": Source(table: "skipped_transfers.csv", sumColumn: "amount_owed"),
        "unreversed_disputes": Source(table: "unreversed_disputes.csv", sumColumn: nil),
        "unrecovered": Source(table: "unreversed_disputes.csv", sumColumn: "unrecovered"),
        "transfer_groups": Source(table: "transfer_groups.csv", sumColumn: nil),
        "platform_take": Source(table: "transfer_groups.csv", sumColumn: "platform_take"),
        "stripe_costs": Source(table: "stripe_costs.csv", sumColumn: "amount"),
    ]

    /// Summary column → the Connected accounts column of the same name (every summary column but `stripe_fee`,
    /// which is counted in the settlement currency, not the account's).
    private static let connectedAccountSources: [String: Source] = {
        let shared = Set(ReportTable.connectedAccountsColumns.map(\.name))
        var sources: [String: Source] = [:]
        for column in ReportTable.summaryColumns.dropFirst() where shared.contains(column.name) {
            sources[column.name] = Source(
                table: "connected_accounts.csv", sumColumn: column.name,
                counts: column.kind == .count)
        }
        return sources
    }()

    /// The check formulas' cached results: per summary column and currency, the integer sum (or count) of the
    /// detail rows, added up as the rows are written (platform fees stream through before the summary exists).
    struct Totals {
        /// Summary column → currency → sum; `nil` once a sum overflowed.
        private var sums: [String: [Currency: Int64?]] = [:]

        init() {}

        /// The totals of every detail row of `report`.
        init(_ report: ReconciliationReport) {
            for row in report.platformFees { add(row) }
            add(report)
        }

        mutating func add(_ row: PlatformFeeRow) {
            add("destination_charges", row.currency, 1)
            add("gross", row.currency, row.amount)
            add("refunded", row.currency, row.amountRefunded)
            add("destination_platform_fee", row.currency, row.destinationPlatformFee)
            if let settlement = row.settlementCurrency, let fee = row.stripeFee { add("stripe_fee", settlement, fee) }
        }

        /// Adds the transfer groups, skipped transfers and unreversed disputes of `report` (its platform fees are not
        /// read).
        mutating func add(_ report: ReconciliationReport) {
            for row in report.skippedTransfers {
                add("skipped_transfers", row.currency, 1)
                add("amount_owed", row.currency, row.amountOwed)
            }
            for row in report.unreversedDisputes {
                add("unreversed_disputes", row.currency, 1)
                add("unrecovered", row.currency, row.unrecovered)
            }
            // A group whose amounts are in more than one currency has no `currency` and counts in no row.
            for row in report.transferGroups {
                guard let currency = row.currency, let take = row.platformTake else { continue }
                add("transfer_groups", currency, 1)
                add("platform_take", currency, take)
            }
            for row in report.stripeCosts { add("stripe_costs", row.currency, row.amount) }
        }

        /// Adds a connected account's statement, under the summary's column names.
        mutating func add(_ row: ConnectedAccountRow) {
            add("destination_charges", row.currency, Int64(row.destinationCharges))
            add("gross", row.currency, row.gross)
            add("refunded", row.currency, row.refunded)
            add("destination_platform_fee", row.currency, row.destinationPlatformFee)
            add("skipped_transfers", row.currency, Int64(row.skippedTransfers))
            add("amount_owed", row.currency, row.amountOwed)
            add("unreversed_disputes", row.currency, Int64(row.unreversedDisputes))
            add("unrecovered", row.currency, row.unrecovered)
            add("account_debits", row.currency, row.accountDebits)
            add("losses_covered", row.currency, row.lossesCovered)
        }

        /// The sum of `column` in `currency` (zero when no row counted), `nil` when it overflowed.
        func total(_ column: String, _ currency: Currency) -> Int64? {
            guard let sum = sums[column]?[currency] else { return 0 }
            return sum
        }

        private mutating func add(_ column: String, _ currency: Currency, _ value: Int64) {
            let current = sums[column]?[currency] ?? 0
            let next = current.flatMap { total -> Int64? in
                let (sum, overflow) = total.addingReportingOverflow(value)
                return overflow ? nil : sum
            }
            sums[column, default: [:]][currency] = .some(next)
        }
    }

    /// One row per summary row: its currency, then a formula (or `nil`) for each summary column after it.
    static func rows(
        _ summaryRows: [SummaryRow], block: Block, tables: [(fileName: String, columns: [Column])],
        parts: [String: [SheetPart]]
    ) -> [(label: String, cells: [FormulaCell?])] {
        summaryRows.map { summary in
            let currency = summary.currency
            let cells = ReportTable.summaryColumns.dropFirst().map { column -> FormulaCell? in
                guard let source = block.sources[column.name],
                    let table = tables.first(where: { $0.fileName == source.table }),
                    let sheets = parts[source.table], !sheets.isEmpty,
                    let criteria = table.columns.firstIndex(where: { $0.name == source.criteriaColumn }),
                    let total = block.totals.total(column.name, currency)
                else { return nil }
                guard let sumName = source.sumColumn else {
                    let terms = sheets.map { sheet in
                        "COUNTIF(\(reference(sheet.name, criteria)),\"\(currency.rawValue)\")"
                    }
                    return FormulaCell(formula: "=" + terms.joined(separator: "+"), cachedResult: .count(Int(total)))
                }
                guard let sumColumn = table.columns.firstIndex(where: { $0.name == sumName }) else { return nil }
                // One SUMIF per sheet the table fills: past Excel's row limit a table continues on `<name> (2)`.
                let terms = sheets.map { sheet in
                    let criteriaRange = reference(sheet.name, criteria)
                    let sumRange = reference(sheet.name, sumColumn)
                    return "SUMIF(\(criteriaRange),\"\(currency.rawValue)\",\(sumRange))"
                }
                let cached: Cell = source.counts ? .count(Int(total)) : .amount(total, currency)
                return FormulaCell(formula: "=" + terms.joined(separator: "+"), cachedResult: cached)
            }
            return (label: currency.rawValue, cells: cells)
        }
    }

    /// `'Platform fees'!$N:$N`.
    static func reference(_ sheet: String, _ column: Int) -> String {
        let letters = columnLetters(column)
        return "'\(sheet.replacingOccurrences(of: "'", with: "''"))'!$\(letters):$\(letters)"
    }

    /// `A` for 0, `Z` for 25, `AA` for 26.
    static func columnLetters(_ column: Int) -> String {
        var number = column + 1
        var letters = ""
        while number > 0 {
            let remainder = (number - 1) % 26
            letters = String(UnicodeScalar(UInt8(65 + remainder))) + letters
            number = (number - 1) / 26
        }
        return letters
    }
}
