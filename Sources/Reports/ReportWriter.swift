import Foundation
import ReconCore

/// Writes a range's report folder (docs/REPORTS.md): nine CSV files and one formatted workbook, all or nothing.
/// (``ReportStream`` writes the same folder with the platform fees given as they are made.)
///
/// ```swift
/// let files = try ReportWriter.write(report, metadata: metadata, to: URL(fileURLWithPath: "Reports"))
/// print(files.workbook.path)  // Reports/2026-11-20_2026-11-21/reconciliation_2026-11-20_2026-11-21.xlsx
/// ```
///
/// The writers format what they are given and never compute a figure (the one exception, the cached results
/// of the Summary sheet's check formulas, is described in ``SummaryChecks``).
///
/// Choices where docs/REPORTS.md is silent:
/// - `exceptions.csv` ends with a `status` column (`new`/`open`) after the documented seven.
/// - The workbook opens on its Summary; its sheets follow ``WorkbookSheet``. Header texts are readable labels
///   of the CSV column names (`destination_platform_fee` → `Destination platform fee`); the CSV files keep
///   docs/REPORTS.md's names.
/// - Every sheet prints landscape, one page wide, its header row repeated on each page.
/// - Times in the workbook are real date-times (UTC) formatted `yyyy-mm-dd"T"hh:mm:ss"Z"`: they look like the
///   CSV's text and still sort and filter as dates.
/// - Amounts: number formats `#,##0`, `#,##0.00`, `#,##0.000` by the currency's exponent, negatives red.
///   An amount whose currency has no known exponent is written as the text `minor units: N` (see ``CellText``).
/// - Formula-like text gets a leading `'` in both the CSV and the workbook (see ``FormulaGuard``).
/// - The Run sheet has the columns `section, item, value, detail`; API base URLs lose any user and password,
///   and anything shaped like a Stripe key is replaced by `[redacted key]`.
/// - A full sheet continues on `<name> (2)`, `(3)`… with its own header, for every sheet including Run.
public enum ReportWriter {
    /// The workbook's file name for a report folder: `reconciliation_<from>_<to>.xlsx`.
    public static func workbookName(folderName: String) -> String { "reconciliation_\(folderName).xlsx" }

    /// Writes `report` to `<outputDirectory>/<range.folderName>/`, replacing the range's previous report in
    /// one step. Everything is written and synced in a hidden temporary folder first; if anything fails, the
    /// previous report stays byte-identical and the temporary folder is removed. Leftovers of a killed run
    /// are removed first. `outputDirectory` is created if missing.
    public static func write(
        _ report: ReconciliationReport, metadata: ReportMetadata, to outputDirectory: URL
    ) throws(ReportError) -> ReportFiles {
        try write(report, metadata: metadata, to: outputDirectory, options: WriteOptions())
    }

    /// ``write(_:metadata:to:)`` with the knobs tests need.
    package static func write(
        _ report: ReconciliationReport, metadata: ReportMetadata, to outputDirectory: URL, options: WriteOptions
    ) throws(ReportError) -> ReportFiles {
        let stream = try ReportStream(range: metadata.range, to: outputDirectory, options: options)
        return try stream.finish(report, metadata: metadata)
    }
}

/// Where a write can be made to fail in tests.
package enum WriteStage: Sendable, CaseIterable {
    /// Every CSV file is written and closed (synced with the workbook, later); the workbook holds the platform-fee rows
    /// only.
    case afterCSVFiles
    /// Every sheet is written, the workbook is still open (its `deinit` closes it).
    case afterSheets
    /// The workbook is closed and synced, and so is every CSV file.
    case afterWorkbook
    /// The temporary folder is complete; the swap has not happened.
    case beforeSwap
}

/// Test knobs of ``ReportWriter``; the defaults are production's.
package struct WriteOptions: Sendable {
    /// Rows per sheet, header included, before a sheet continues on `<name> (2)`: Excel's 1,048,576.
    package var maxRowsPerSheet: Int
    /// Called at each ``WriteStage``; throwing makes the write fail there.
    package var faultInjection: (@Sendable (WriteStage) throws(ReportError) -> Void)?

    package init(
        maxRowsPerSheet: Int = WorkbookWriter.excelMaxRows,
        faultInjection: (@Sendable (WriteStage) throws(ReportError) -> Void)? = nil
    ) {
        self.maxRowsPerSheet = maxRowsPerSheet
        self.faultInjection = faultInjection
    }
}
