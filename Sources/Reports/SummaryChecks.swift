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
enum SummaryChecks {
    static let note =
        "Check: the same totals summed from the detail sheets (formulas), one row per currency; "
        + "compare with the rows above."

    /// A detail column summed (or counted) into one summary column.
    private struct Source: Sendable {
        let table: String
        /// The column holding the currency the detail amount is counted in.
        var criteriaColumn = "currency"
        let sumColumn: String?
        let total: @Sendable (ReconciliationReport, Currency) -> Int64?
    }

    private static let sources: [String: Source] = [
        "destination_charges": Source(table: "platform_fees.csv", sumColumn: nil) { report, currency in
            Int64(report.platformFees.lazy.filter { $0.currency == currency }.count)
        },
        "gross": Source(table: "platform_fees.csv", sumColumn: "amount") { report, currency in
            sum(report.platformFees.lazy.filter { $0.currency == currency }.map(\.amount))
        },
        "refunded": Source(table: "platform_fees.csv", sumColumn: "amount_refunded") { report, currency in
            sum(report.platformFees.lazy.filter { $0.currency == currency }.map(\.amountRefunded))
        },
        "destination_platform_fee": Source(table: "platform_fees.csv", sumColumn: "destination_platform_fee") {
            report, currency in
            sum(report.platformFees.lazy.filter { $0.currency == currency }.map(\.destinationPlatformFee))
        },
        "stripe_fee": Source(
            table: "platform_fees.csv", criteriaColumn: "settlement_currency", sumColumn: "stripe_fee"
        ) { report, currency in
            sum(report.platformFees.lazy.filter { $0.settlementCurrency == currency }.compactMap(\.stripeFee))
        },
        "skipped_transfers": Source(table: "skipped_transfers.csv", sumColumn: nil) { report, currency in
            Int64(report.skippedTransfers.lazy.filter { $0.currency == currency }.count)
        },
        "amount_owed": Source(table: "skipped_transfers.csv", sumColumn: "amount_owed") { report, currency in
            sum(report.skippedTransfers.lazy.filter { $0.currency == currency }.map(\.amountOwed))
        },
        "unreversed_disputes": Source(table: "unreversed_disputes.csv", sumColumn: nil) { report, currency in
            Int64(report.unreversedDisputes.lazy.filter { $0.currency == currency }.count)
        },
        "unrecovered": Source(table: "unreversed_disputes.csv", sumColumn: "unrecovered") { report, currency in
            sum(report.unreversedDisputes.lazy.filter { $0.currency == currency }.map(\.unrecovered))
        },
    ]

    /// One row per summary row: its currency, then a formula (or `nil`) for each summary column after it.
    static func rows(
        _ report: ReconciliationReport, tables: [ReportTable], parts: [String: [SheetPart]]
    ) -> [(label: String, cells: [FormulaCell?])] {
        report.summary.map { summary in
            let currency = summary.currency
            let cells = ReportTable.summaryColumns.dropFirst().map { column -> FormulaCell? in
                guard let source = sources[column.name],
                    let table = tables.first(where: { $0.fileName == source.table }),
                    let sheets = parts[source.table], !sheets.isEmpty,
                    let criteria = table.columns.firstIndex(where: { $0.name == source.criteriaColumn }),
                    let total = source.total(report, currency)
                else { return nil }
                if let sumName = source.sumColumn {
                    guard let sumColumn = table.columns.firstIndex(where: { $0.name == sumName }) else { return nil }
                    let terms = sheets.map { sheet in
                        let criteriaRange = reference(sheet.name, criteria)
                        let sumRange = reference(sheet.name, sumColumn)
                        return "SUMIF(\(criteriaRange),\"\(currency.rawValue)\",\(sumRange))"
                    }
                    return FormulaCell(
                        formula: "=" + terms.joined(separator: "+"), cachedResult: .amount(total, currency))
                }
                let terms = sheets.map { sheet in "COUNTIF(\(reference(sheet.name, criteria)),\"\(currency.rawValue)\")"
                }
                return FormulaCell(formula: "=" + terms.joined(separator: "+"), cachedResult: .count(Int(total)))
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

    /// Integer sum, `nil` on overflow.
    private static func sum(_ values: some Sequence<Int64>) -> Int64? {
        var total: Int64 = 0
        for value in values {
            let (next, overflow) = total.addingReportingOverflow(value)
            if overflow { return nil }
            total = next
        }
        return total
    }
}
