import CXlsxWriter
import Foundation
import ReconCore

/// A report folder written while the reconcile runs: `platform_fees` rows as they come, then everything else.
///
/// ```swift
/// let stream = try ReportStream(range: range, to: URL(fileURLWithPath: "Reports"))
/// for part in parts { try stream.append(platformFees: rows(of: part)) }
/// let files = try stream.finish(rest, metadata: metadata)  // atomic: swapped into place here
/// ```
///
/// The workbook opens on its Summary, which is only known at the end: the Summary sheet is added first, empty,
/// and filled by ``finish(_:metadata:)`` (in libxlsxwriter's constant-memory mode every sheet keeps its own row
/// cursor, so a sheet may be written after the ones added behind it, as long as its own rows go top to bottom).
/// The platform fees go straight to `platform_fees.csv` and to the sheet after the Summary (its column widths
/// come from the first 1,000 rows, held until then), so a million rows never sit in memory. Everything happens
/// in a hidden temporary folder; ``finish(_:metadata:)`` writes the other tables in ``WorkbookSheet`` order, the
/// Run sheet and the Summary, closes the workbook and swaps the folder into place. A stream that is dropped
/// unfinished, or whose write fails, removes its temporary folder and leaves the previous report untouched.
///
/// Not thread-safe: use one stream from one thread at a time.
public final class ReportStream {
    /// How long each writer has worked so far, in seconds (for the run's timings).
    public struct Timings: Sendable, Hashable {
        /// Formatting and writing CSV rows, syncing included.
        public var csv: Double = 0
        /// Writing the workbook's rows and sheets.
        public var workbookRows: Double = 0
        /// Closing the workbook (libxlsxwriter zips the sheets here) and syncing it.
        public var workbookClose: Double = 0

        public init() {}
    }

    private let options: WriteOptions
    private let outputPath: String
    private let folderName: String
    private let temporary: String
    private var platformFeesCSV: CSVWriter?
    private var workbook: WorkbookWriter?
    /// The Platform fees sheet, sized from its first rows.
    private var platformFeesSheet = SizedSheet(ReportTable.platformFees)
    /// The Summary sheet, added first and written last.
    private var summarySheet: UnsafeMutablePointer<lxw_worksheet>?
    private var platformFeeCount = 0
    private var totals = SummaryChecks.Totals()
    private var finished = false
    public private(set) var timings = Timings()

    /// Starts the report of `range` under `outputDirectory` (created if missing); leftovers of a killed run
    /// are removed first.
    public convenience init(range: ReportingRange, to outputDirectory: URL) throws(ReportError) {
        try self.init(range: range, to: outputDirectory, options: WriteOptions())
    }

    /// ``init(range:to:)`` with the knobs tests need.
    package init(range: ReportingRange, to outputDirectory: URL, options: WriteOptions) throws(ReportError) {
        var outputPath = outputDirectory.standardizedFileURL.path
        while outputPath.count > 1, outputPath.hasSuffix("/") { outputPath.removeLast() }
        try ReportFolder.prepareOutputDirectory(outputPath)
        ReportFolder.removeStale(in: outputPath)
        self.options = options
        self.outputPath = outputPath
        self.folderName = range.folderName
        self.temporary = try ReportFolder.createTemporary(in: outputPath, for: range.folderName)
        do {
            var csv = try CSVWriter(path: temporary + "/" + ReportTable.platformFeesFileName)
            try csv.writeHeader(ReportTable.platformFeesColumns)
            platformFeesCSV = consume csv
            var writer = try WorkbookWriter(
                path: temporary + "/" + ReportWriter.workbookName(folderName: range.folderName),
                temporaryDirectory: temporary, maxRowsPerSheet: options.maxRowsPerSheet,
                printTitle: "connect-recon reconciliation \(range.description)")
            summarySheet = try writer.reserveSheet(named: SummarySheet.name)
            workbook = consume writer
        } catch {
            ReportFolder.removeTree(temporary)
            finished = true
            throw error
        }
    }

    deinit {
        // Unfinished or failed: nothing of this stream may stay behind (the workbook's own deinit closes it).
        if !finished { ReportFolder.removeTree(temporary) }
    }

    /// Writes `rows` to `platform_fees.csv` and the Platform fees sheet, in the order given (the caller's order
    /// is the report's: creation time, then charge id).
    public func append(platformFees rows: [PlatformFeeRow]) throws(ReportError) {
        precondition(!finished, "append after finish")
        do {
            try appendRows(rows)
        } catch {
            abandon()
            throw error
        }
    }

    /// Writes the other tables of `report` (its `platformFees`, if any, are appended first), the Summary checks
    /// and the Run sheet, closes the workbook, syncs everything and swaps the folder into place.
    ///
    /// With `payoutTransactions`, the `payout_transactions` table is not `report`'s: its rows are the batches the
    /// closure returns, in order, until it returns `nil`, each written to the CSV file and the sheet as it comes (a
    /// platform whose payouts paid out millions of balance transactions never holds them). An error the closure
    /// throws abandons the report.
    public func finish(
        _ report: ReconciliationReport, metadata: ReportMetadata,
        payoutTransactions: (() throws -> [PayoutTransactionRow]?)? = nil
    ) throws(ReportError) -> ReportFiles {
        precondition(!finished, "finish called twice")
        do {
            try appendRows(report.platformFees)
            return try complete(report, metadata: metadata, payoutTransactions: payoutTransactions)
        } catch {
            abandon()
            throw error
        }
    }

    // MARK: Steps

    private func appendRows(_ rows: [PlatformFeeRow]) throws(ReportError) {
        guard !rows.isEmpty else { return }
        let table = ReportTable.platformFees(rows)
        var clock = WriterClock()
        try platformFeesCSV?.writeRows(table)
        for row in rows { totals.add(row) }
        timings.csv += clock.lap()
        platformFeeCount += rows.count
        guard var writer = workbook.take() else { return }
        do {
            try platformFeesSheet.append(rows, into: &writer)
        } catch {
            workbook = consume writer
            throw error
        }
        workbook = consume writer
        timings.workbookRows += clock.lap()
    }

    private func complete(
        _ report: ReconciliationReport, metadata: ReportMetadata,
        payoutTransactions batches: (() throws -> [PayoutTransactionRow]?)?
    ) throws(ReportError) -> ReportFiles {
        var clock = WriterClock()
        guard let csv = platformFeesCSV.take(), var writer = workbook.take() else {
            preconditionFailure("a report stream is finished once")
        }

        // CSV files: platform fees (streamed) and the rest.
        let platformResult = try csv.finish()
        var csvFiles = [
            ReportFiles.CSVFile(
                name: ReportTable.platformFeesFileName,
                url: URL(fileURLWithPath: temporary + "/" + ReportTable.platformFeesFileName),
                sha256: platformResult.sha256, byteCount: platformResult.byteCount, rowCount: platformFeeCount)
        ]
        var unknownDecimals = platformResult.unknownDecimals
        let streamedPayoutTransactions = ReportTable.payoutTransactions([])
        let tables = ReportTable.tables(of: report).filter { $0.fileName != ReportTable.platformFeesFileName }
        for table in tables where batches == nil || table.fileName != streamedPayoutTransactions.fileName {
            let path = temporary + "/" + table.fileName
            var writer = try CSVWriter(path: path)
            try writer.writeHeader(table.columns)
            try writer.writeRows(table)
            let result = try writer.finish()
            unknownDecimals += result.unknownDecimals
            csvFiles.append(
                ReportFiles.CSVFile(
                    name: table.fileName, url: URL(fileURLWithPath: path), sha256: result.sha256,
                    byteCount: result.byteCount, rowCount: table.rowCount))
        }
        timings.csv += clock.lap()
        try options.faultInjection?(.afterCSVFiles)
        let workbookName = ReportWriter.workbookName(folderName: folderName)

        // The workbook: after the Summary and the streamed platform fees, one sheet (or more, past Excel's row
        // limit) per table in WorkbookSheet order, then Run; the Summary is filled last, when every sheet its
        // formulas and charts refer to exists.
        var parts: [String: [SheetPart]] = [ReportTable.platformFeesFileName: try platformFeesSheet.end(&writer)]
        for kind in WorkbookSheet.allCases {
            switch kind {
            case .summary, .platformFees:
                continue
            case .run:
                _ = try writer.write(
                    RunSheet.table(
                        metadata: metadata, csvFiles: csvFiles, workbookName: workbookName,
                        unknownDecimals: unknownDecimals))
            case .payoutTransactions where batches != nil:
                guard let batches else { continue }
                var clock = WriterClock()
                let (file, sheets) = try streamPayoutTransactions(batches, into: &writer)
                csvFiles.append(file.csv)
                unknownDecimals += file.unknownDecimals
                parts[streamedPayoutTransactions.fileName] = sheets
                timings.workbookRows += clock.lap()
            default:
                guard let table = ReportTable.table(kind, of: report) else { continue }
                parts[table.fileName] = try writer.write(table)
            }
        }
        try options.faultInjection?(.afterSheets)
        guard let summarySheet else { preconditionFailure("the Summary sheet is added when the stream starts") }
        var checkTotals = totals
        checkTotals.add(report)
        let columns =
            [(ReportTable.platformFeesFileName, ReportTable.platformFeesColumns)]
            + tables.map { ($0.fileName, $0.columns) }
        let blocks = [
            SummaryChecks.detailBlock(checkTotals), SummaryChecks.connectedAccountsBlock(report.connectedAccounts),
        ]
        try writer.write(
            SummarySheet(
                report: report,
                checks: blocks.map { block in
                    (block.note, SummaryChecks.rows(report.summary, block: block, tables: columns, parts: parts))
                },
                timeZone: metadata.range.timeZone.identifier),
            on: summarySheet)
        let sheetNames = writer.sheetNames
        timings.workbookRows += clock.lap()
        let workbookPath = temporary + "/" + workbookName
        try writer.close()
        try syncPath(workbookPath)
        timings.workbookClose += clock.lap()
        try options.faultInjection?(.afterWorkbook)

        // Into place.
        try syncPath(temporary)
        try options.faultInjection?(.beforeSwap)
        let finalPath = outputPath + "/" + folderName
        if let previous = try ReportFolder.moveIntoPlace(
            temporary, to: finalPath, outputPath: outputPath, folderName: folderName)
        {
            ReportFolder.removeTree(previous)
        }
        finished = true
        // The new report is in place; a failed sync of the parent only weakens durability, so it is not an error.
        try? syncPath(outputPath)
        let folder = URL(fileURLWithPath: finalPath, isDirectory: true)
        return ReportFiles(
            folder: folder,
            csvFiles: csvFiles.map { file in
                var file = file
                file.url = folder.appendingPathComponent(file.name)
                return file
            },
            workbook: folder.appendingPathComponent(workbookName), sheetNames: sheetNames,
            amountsWithUnknownDecimals: unknownDecimals)
    }

    /// Writes the `payout_transactions` rows `batches` returns to their CSV file and their sheet as they come; the
    /// sheet's columns are sized from the first rows, as a whole table's are.
    private func streamPayoutTransactions(
        _ batches: () throws -> [PayoutTransactionRow]?, into writer: inout WorkbookWriter
    ) throws(ReportError) -> (file: (csv: ReportFiles.CSVFile, unknownDecimals: Int), sheets: [SheetPart]) {
        let empty = ReportTable.payoutTransactions([])
        let path = temporary + "/" + empty.fileName
        var csv = try CSVWriter(path: path)
        try csv.writeHeader(empty.columns)
        var sheet = SizedSheet(ReportTable.payoutTransactions)
        var count = 0
        while true {
            let rows: [PayoutTransactionRow]
            do {
                guard let next = try batches() else { break }
                rows = next
            } catch {
                throw .rowsUnavailable(table: empty.fileName, reason: "\(error)")
            }
            try csv.writeRows(ReportTable.payoutTransactions(rows))
            count += rows.count
            try sheet.append(rows, into: &writer)
        }
        let sheets = try sheet.end(&writer)
        let result = try csv.finish()
        let file = ReportFiles.CSVFile(
            name: empty.fileName, url: URL(fileURLWithPath: path), sha256: result.sha256,
            byteCount: result.byteCount, rowCount: count)
        return ((file, result.unknownDecimals), sheets)
    }

    /// Drops the unfinished report: closes what is open and removes the hidden folder; the previous report of
    /// the range stays as it was. Does nothing once finished (or already abandoned).
    public func abandon() {
        guard !finished else { return }
        _ = platformFeesCSV.take()
        _ = workbook.take()
        ReportFolder.removeTree(temporary)
        finished = true
    }
}

/// Seconds between laps, for ``ReportStream/Timings``.
private struct WriterClock {
    private var last = ContinuousClock.now

    mutating func lap() -> Double {
        let now = ContinuousClock.now
        defer { last = now }
        return (now - last).inSeconds
    }
}
