import Foundation
import ReconCore

/// Writes a range's report folder (SPEC §5): six CSV files and one formatted workbook, all or nothing.
///
/// ```swift
/// let files = try ReportWriter.write(report, metadata: metadata, to: URL(fileURLWithPath: "Reports"))
/// print(files.workbook.path)  // Reports/2026-11-20_2026-11-21/reconciliation_2026-11-20_2026-11-21.xlsx
/// ```
///
/// The writers format what they are given and never compute a figure (the one exception, the cached results
/// of the Summary sheet's check formulas, is described in ``SummaryChecks``).
///
/// Choices where SPEC §5 is silent:
/// - `exceptions.csv` ends with a `status` column (`new`/`open`) after SPEC's seven.
/// - The workbook's header texts are the CSV column names, so a formula or script works on either.
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
        var outputPath = outputDirectory.standardizedFileURL.path
        while outputPath.count > 1, outputPath.hasSuffix("/") { outputPath.removeLast() }
        try ReportFolder.prepareOutputDirectory(outputPath)
        ReportFolder.removeStale(in: outputPath)

        let folderName = metadata.range.folderName
        let finalPath = outputPath + "/" + folderName
        let temporary = try ReportFolder.createTemporary(in: outputPath, for: folderName)
        do {
            let written = try writeContents(report, metadata: metadata, into: temporary, options: options)
            try syncPath(temporary)
            try options.faultInjection?(.beforeSwap)
            if let previous = try ReportFolder.moveIntoPlace(
                temporary, to: finalPath, outputPath: outputPath, folderName: folderName)
            {
                ReportFolder.removeTree(previous)
            }
            // The new report is in place; a failed sync of the parent only weakens durability, so it is not an error.
            try? syncPath(outputPath)
            let folder = URL(fileURLWithPath: finalPath, isDirectory: true)
            return ReportFiles(
                folder: folder,
                csvFiles: written.csvFiles.map { file in
                    var file = file
                    file.url = folder.appendingPathComponent(file.name)
                    return file
                },
                workbook: folder.appendingPathComponent(workbookName(folderName: folderName)),
                sheetNames: written.sheetNames,
                amountsWithUnknownDecimals: written.unknownDecimals)
        } catch {
            ReportFolder.removeTree(temporary)
            throw error
        }
    }

    private static func writeContents(
        _ report: ReconciliationReport, metadata: ReportMetadata, into folder: String, options: WriteOptions
    ) throws(ReportError) -> (csvFiles: [ReportFiles.CSVFile], sheetNames: [String], unknownDecimals: Int) {
        let tables = ReportTable.tables(of: report)

        // CSV files.
        var csvFiles: [ReportFiles.CSVFile] = []
        var unknownDecimals = 0
        var cells: [Cell] = []
        for table in tables {
            let path = folder + "/" + table.fileName
            var writer = try CSVWriter(path: path)
            try writer.writeHeader(table.columns)
            for index in 0..<table.rowCount {
                cells.removeAll(keepingCapacity: true)
                table.fill(index, &cells)
                try writer.writeRecord(cells)
            }
            let result = try writer.finish()
            unknownDecimals += result.unknownDecimals
            csvFiles.append(
                ReportFiles.CSVFile(
                    name: table.fileName, url: URL(fileURLWithPath: path), sha256: result.sha256,
                    byteCount: result.byteCount, rowCount: table.rowCount))
        }
        try options.faultInjection?(.afterCSVFiles)

        // The workbook: one sheet (or more, past Excel's row limit) per CSV, then Run.
        let workbookName = workbookName(folderName: metadata.range.folderName)
        let workbookPath = folder + "/" + workbookName
        var workbook = try WorkbookWriter(
            path: workbookPath, temporaryDirectory: folder, maxRowsPerSheet: options.maxRowsPerSheet)
        var parts: [String: [SheetPart]] = [:]
        for table in tables {
            let written = try workbook.write(table)
            parts[table.fileName] = written
            guard table.fileName == "summary.csv", written.count == 1, let summary = written.first else { continue }
            try workbook.writeChecks(
                on: summary, note: SummaryChecks.note,
                rows: SummaryChecks.rows(report, tables: tables, parts: parts))
            try workbook.insertColumnChart(
                on: summary, title: "Destination Platform Fee by currency", categoryColumn: 0,
                valueColumn: ReportTable.summaryColumns.firstIndex { $0.name == "destination_platform_fee" } ?? 4,
                valueAxis: "major units of each currency", at: table.columns.count + 1)
        }
        try options.faultInjection?(.afterSheets)
        _ = try workbook.write(
            RunSheet.table(
                metadata: metadata, csvFiles: csvFiles, workbookName: workbookName, unknownDecimals: unknownDecimals))
        let sheetNames = workbook.sheetNames
        try workbook.close()
        try syncPath(workbookPath)
        try options.faultInjection?(.afterWorkbook)
        return (csvFiles, sheetNames, unknownDecimals)
    }
}

/// Where a write can be made to fail in tests.
package enum WriteStage: Sendable, CaseIterable {
    /// Every CSV file is written, the workbook is not started.
    case afterCSVFiles
    /// Every sheet is written, the workbook is still open (its `deinit` closes it).
    case afterSheets
    /// The workbook is closed and synced.
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
