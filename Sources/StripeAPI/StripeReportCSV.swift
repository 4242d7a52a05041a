import Foundation
import ReconCore

/// The two report types connect-recon compares with, their columns, and their files read by column name.
///
/// Amounts in the files are decimals in major units (`-60.00`); they are read exactly into minor units with the
/// currency's exponent (``MajorUnitParser``). Columns are found by name in the header: their order does not matter
/// and unknown extra columns are ignored.
public enum StripeReportCSV {
    /// `balance.summary.1`: the balance at the start and end of the interval, and what changed it.
    public static let balanceSummary = "balance.summary.1"
    /// `balance_change_from_activity.summary.1`: the interval's activity per reporting category.
    public static let activitySummary = "balance_change_from_activity.summary.1"

    /// The columns a `balance.summary.1` run asks for.
    public static let balanceSummaryColumns = ["category", "description", "net_amount", "currency"]
    /// The columns a `balance_change_from_activity.summary.1` run asks for.
    public static let activitySummaryColumns = ["reporting_category", "currency", "count", "gross", "fee", "net"]

    /// The `category` values of `balance.summary.1`.
    private static let categories = ["starting_balance", "activity", "payouts", "ending_balance"]

    /// Reads a `balance.summary.1` file for `currency` over `[intervalStart, intervalEnd)`.
    public static func balanceSummary(
        _ body: some Collection<UInt8>, currency: Currency, intervalStart: Int64, intervalEnd: Int64
    ) throws(ReportCSVError) -> BalanceSummaryReport {
        let table = try Table(body, report: balanceSummary, currency: currency, required: ["category", "net_amount"])
        var amounts: [String: Int64] = [:]
        for row in table.rows.indices {
            try table.checkCurrency(row: row)
            let category = table.cell(row, "category")
            guard categories.contains(category) else {
                throw .unknownCategory(report: balanceSummary, row: row + 1, category: category)
            }
            guard amounts[category] == nil else {
                throw .invalidRows(report: balanceSummary, detail: "the category '\(category)' has two rows")
            }
            amounts[category] = try table.amount(row, "net_amount")
        }
        var values: [Int64] = []
        for category in categories {
            guard let amount = amounts[category] else {
                throw .invalidRows(report: balanceSummary, detail: "there is no '\(category)' row")
            }
            values.append(amount)
        }
        return BalanceSummaryReport(
            currency: currency, intervalStart: intervalStart, intervalEnd: intervalEnd, starting: values[0],
            activity: values[1], payouts: values[2], ending: values[3])
    }

    /// Reads a `balance_change_from_activity.summary.1` file for `currency` over `[intervalStart, intervalEnd)`.
    public static func activitySummary(
        _ body: some Collection<UInt8>, currency: Currency, intervalStart: Int64, intervalEnd: Int64
    ) throws(ReportCSVError) -> ActivitySummaryReport {
        let table = try Table(
            body, report: activitySummary, currency: currency,
            required: ["reporting_category", "count", "gross", "fee", "net"])
        var rows: [String: ActivitySummaryReport.Row] = [:]
        for row in table.rows.indices {
            try table.checkCurrency(row: row)
            let category = table.cell(row, "reporting_category")
            guard !category.isEmpty else {
                throw .invalidRows(report: activitySummary, detail: "row \(row + 1) has no reporting_category")
            }
            guard rows[category] == nil else {
                throw .invalidRows(report: activitySummary, detail: "the reporting category '\(category)' has two rows")
            }
            rows[category] = ActivitySummaryReport.Row(
                count: try table.count(row, "count"), gross: try table.amount(row, "gross"),
                fee: try table.amount(row, "fee"), net: try table.amount(row, "net"))
        }
        return ActivitySummaryReport(
            currency: currency, intervalStart: intervalStart, intervalEnd: intervalEnd, rows: rows)
    }

    /// A report file's data rows, with its columns by name.
    private struct Table {
        let report: String
        let currency: Currency
        let exponent: Int
        let columns: [String: Int]
        let rows: [[String]]

        init(
            _ body: some Collection<UInt8>, report: String, currency: Currency, required: [String]
        ) throws(ReportCSVError) {
            let records: [[String]]
            do {
                records = try CSVReader.records(body)
            } catch {
                throw .malformedCSV(report: report, detail: error.description)
            }
            guard let exponent = currency.exponent else {
                throw .invalidRows(
                    report: report,
                    detail: "its currency '\(currency)' is not in Stripe's currency table, so its "
                        + "amounts cannot be read")
            }
            guard let header = records.first else { throw .missingColumn(report: report, column: required[0]) }
            var columns: [String: Int] = [:]
            for (index, name) in header.enumerated() {
                let name = name.trimmingCharacters(in: .whitespaces)
                if columns[name] == nil { columns[name] = index }
            }
            for column in required where columns[column] == nil {
                throw .missingColumn(report: report, column: column)
            }
            self.report = report
            self.currency = currency
            self.exponent = exponent
            self.columns = columns
            self.rows = Array(records.dropFirst())
        }

        /// The text in `column` of data row `row` (0-based); empty when the row is short or the column absent.
        func cell(_ row: Int, _ column: String) -> String {
            guard let index = columns[column], index < rows[row].count else { return "" }
            return rows[row][index]
        }

        func amount(_ row: Int, _ column: String) throws(ReportCSVError) -> Int64 {
            let text = cell(row, column)
            do {
                return try MajorUnitParser.minorUnits(text, exponent: exponent)
            } catch {
                throw .malformedAmount(
                    report: report, row: row + 1, column: column, text: text, problem: error.description)
            }
        }

        func count(_ row: Int, _ column: String) throws(ReportCSVError) -> Int64 {
            let text = cell(row, column)
            guard let value = Int64(text), value >= 0, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw .malformedAmount(
                    report: report, row: row + 1, column: column, text: text, problem: "not a whole number of rows")
            }
            return value
        }

        /// A row of another currency than the one asked for is refused (its amounts would be read wrongly).
        func checkCurrency(row: Int) throws(ReportCSVError) {
            guard columns["currency"] != nil else { return }
            let text = cell(row, "currency")
            guard Currency(rawValue: text) == currency else {
                throw .invalidRows(
                    report: report, detail: "row \(row + 1) is in '\(text.prefix(10))', not the \(currency) asked for")
            }
        }
    }
}
