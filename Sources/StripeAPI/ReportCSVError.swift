import ReconCore

/// Why a report file Stripe returned could not be read. Each message names the report type and, where it applies,
/// the data row (1-based, the header not counted) and the column.
public enum ReportCSVError: ActionableError, Equatable {
    /// The file is not CSV.
    case malformedCSV(report: String, detail: String)
    /// The header lacks a column the report needs.
    case missingColumn(report: String, column: String)
    /// A cell that must hold an amount (or a count) does not.
    case malformedAmount(report: String, row: Int, column: String, text: String, problem: String)
    /// `balance.summary.1` has a `category` this code does not know.
    case unknownCategory(report: String, row: Int, category: String)
    /// Anything else wrong with a row or the rows: another currency, a category twice or missing.
    case invalidRows(report: String, detail: String)

    public var message: String {
        switch self {
        case .malformedCSV(let report, let detail):
            "Stripe's \(report) report is not valid CSV (\(detail)). Report this to Stripe with the report run's id."
        case .missingColumn(let report, let column):
            "Stripe's \(report) report has no '\(column)' column, which connect-recon asked for and needs. Check that "
                + "the report type still has it (https://docs.stripe.com/reports/report-types)."
        case .malformedAmount(let report, let row, let column, let text, let problem):
            "Stripe's \(report) report, row \(row), column '\(column)': '\(text.prefix(40))' is not an amount "
                + "(\(problem)). Report this to Stripe with the report run's id."
        case .unknownCategory(let report, let row, let category):
            "Stripe's \(report) report, row \(row): the category '\(category.prefix(60))' is not one of "
                + "starting_balance, activity, payouts, ending_balance; connect-recon does not know where it belongs in "
                + "the balance. Update connect-recon if Stripe has added it."
        case .invalidRows(let report, let detail):
            "Stripe's \(report) report: \(detail). Report this to Stripe with the report run's id."
        }
    }

    public var isBadInput: Bool { false }
}
