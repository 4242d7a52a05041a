import CXlsxWriter
import Foundation
import ReconCore

/// A report folder written while the reconcile runs: the `platform_fees` rows as they come, then the
/// `payout_transactions` rows as they come, then everything else.
///
/// ```swift
/// let stream = try ReportStream(range: range, to: URL(fileURLWithPath: "Reports"))
/// for part in chargeParts { try stream.append(platformFees: rows(of: part)) }
/// for part in payoutParts { try stream.append(payoutTransactions: rows(of: part)) }
/// let files = try stream.finish(rest, metadata: metadata)  // atomic: swapped into place here
/// ```
///
/// The workbook opens on its Summary, which is only known at the end: the Summary sheet is added first, empty,
/// and filled by ``finish(_:metadata:)`` (in libxlsxwriter's constant-memory mode every sheet keeps its own row
/// cursor, so a sheet may be written after the ones added behind it, as long as its own rows go top to bottom).
/// The two tables that grow with the range stream (``StreamedTable``): the platform fees straight to
/// `platform_fees.csv` and the sheets after the Summary; once the payout transactions begin, the platform fees are
/// over, the Transfer groups and Payouts sheets are added empty (a range's groups and payouts are held until the end,
/// when they are written) and the payout
/// transactions go to their file and the sheets after it. So a million rows never sit in memory, and both
/// tables are written while the rules still run. Everything happens in a hidden temporary folder;
/// ``finish(_:metadata:)`` writes the other tables in ``WorkbookSheet`` order, the Run sheet and the Summary,
/// closes the workbook and swaps the folder into place. A stream that is dropped unfinished, or whose write fails,
/// removes its temporary folder and leaves the previous report untouched.
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
    private var workbook: WorkbookWriter?
    /// The platform fees while they stream; `nil` once they are over.
    private var platformFees: StreamedTable<PlatformFeeRow>?
    /// The payout transactions while they stream, from their first rows to the finish.
    private var payoutTransactions: StreamedTable<PayoutTransactionRow>?
    /// The streamed tables that are over: their files and the sheets they filled.
    private var streamedFiles: [String: (file: ReportFiles.CSVFile, sheets: [SheetPart])] = [:]
    private var unknownDecimals = 0
    /// The Summary sheet, added first and written last.
    private var summarySheet: UnsafeMutablePointer<lxw_worksheet>?
    /// The Balance sheet, added second and written at the end.
    private var balanceSheet: UnsafeMutablePointer<lxw_worksheet>?
    /// The Payouts sheet, added when the payout transactions begin and written last.
    private var payoutsSheet: UnsafeMutablePointer<lxw_worksheet>?
    /// The Transfer groups sheet, beside the platform fees: added when they end and written last.
    private var transferGroupsSheet: UnsafeMutablePointer<lxw_worksheet>?
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
            platformFees = try StreamedTable(ReportTable.platformFees, in: temporary)
            var writer = try WorkbookWriter(
                path: temporary + "/" + ReportWriter.workbookName(folderName: range.folderName),
                temporaryDirectory: temporary, maxRowsPerSheet: options.maxRowsPerSheet,
                printTitle: "connect-recon reconciliation \(range.description)")
            summarySheet = try writer.reserveSheet(named: SummarySheet.name)
            balanceSheet = try writer.reserveSheet(named: BalanceSheet.name)
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
    /// is the report's: creation time, then charge id). Every platform fee comes before the first payout
    /// transaction.
    public func append(platformFees rows: [PlatformFeeRow]) throws(ReportError) {
        precondition(!finished, "append after finish")
        do {
            try appendPlatformFees(rows)
        } catch {
            abandon()
            throw error
        }
    }

    /// Writes `rows` to `payout_transactions.csv` and the Payout transactions sheet, in the order given (the
    /// caller's order is the report's: the payouts by creation time, then id; each one's transactions by creation
    /// time, then id). The first call ends the platform fees.
    public func append(payoutTransactions rows: [PayoutTransactionRow]) throws(ReportError) {
        precondition(!finished, "append after finish")
        do {
            try appendPayoutTransactions(rows)
        } catch {
            abandon()
            throw error
        }
    }

    /// Writes the other tables of `report` (its `platformFees` and `payoutTransactions`, if any, are appended
    /// first), the Summary checks and the Run sheet, closes the workbook, syncs everything and swaps the folder
    /// into place.
    public func finish(_ report: ReconciliationReport, metadata: ReportMetadata) throws(ReportError) -> ReportFiles {
        precondition(!finished, "finish called twice")
        do {
            try appendPlatformFees(report.platformFees)
            try appendPayoutTransactions(report.payoutTransactions)
            return try complete(report, metadata: metadata)
        } catch {
            abandon()
            throw error
        }
    }

    // MARK: Steps

    private func appendPlatformFees(_ rows: [PlatformFeeRow]) throws(ReportError) {
        guard !rows.isEmpty else { return }
        guard var table = platformFees.take() else {
            preconditionFailure("platform fees after the payout transactions began")
        }
        for row in rows { totals.add(row) }
        try withWorkbook { writer throws(ReportError) in try table.append(rows, into: &writer, timings: &timings) }
        platformFees = consume table
    }

    private func appendPayoutTransactions(_ rows: [PayoutTransactionRow]) throws(ReportError) {
        if payoutTransactions == nil { try beginPayoutTransactions() }
        guard !rows.isEmpty, var table = payoutTransactions.take() else { return }
        try withWorkbook { writer throws(ReportError) in try table.append(rows, into: &writer, timings: &timings) }
        payoutTransactions = consume table
    }

    /// Ends the platform fees, adds the Payouts sheet (written at the end) and starts the payout transactions' file.
    private func beginPayoutTransactions() throws(ReportError) {
        guard let fees = platformFees.take(), var writer = workbook.take() else {
            preconditionFailure("the payout transactions begin once, before the finish")
        }
        do {
            try endStreamed(fees, &writer)
            transferGroupsSheet = try writer.reserveSheet(named: ReportTable.transferGroups([]).sheetName)
            payoutsSheet = try writer.reserveSheet(named: ReportTable.payouts([]).sheetName)
        } catch {
            workbook = consume writer
            throw error
        }
        workbook = consume writer
        payoutTransactions = try StreamedTable(ReportTable.payoutTransactions, in: temporary)
    }

    /// Ends a streamed table: its sheets and its closed file.
    private func endStreamed<Row>(_ table: consuming StreamedTable<Row>, _ writer: inout WorkbookWriter)
        throws(ReportError)
    {
        var clock = WriterClock()
        let ended = try table.finish(&writer)
        unknownDecimals += ended.unknownDecimals
        streamedFiles[ended.file.name] = (ended.file, ended.sheets)
        timings.workbookRows += clock.lap()
    }

    /// Runs `body` with the workbook, which stays this stream's whatever `body` does.
    private func withWorkbook(_ body: (inout WorkbookWriter) throws(ReportError) -> Void) throws(ReportError) {
        guard var writer = workbook.take() else { preconditionFailure("the workbook is open until the finish") }
        do {
            try body(&writer)
        } catch {
            workbook = consume writer
            throw error
        }
        workbook = consume writer
    }

    private func complete(_ report: ReconciliationReport, metadata: ReportMetadata) throws(ReportError) -> ReportFiles {
        guard let transactions = payoutTransactions.take(), var writer = workbook.take() else {
            preconditionFailure("a report stream is finished once")
        }
        try endStreamed(transactions, &writer)
        var clock = WriterClock()

        // CSV files, in docs/REPORTS.md's order: the streamed ones are written already.
        var csvFiles: [ReportFiles.CSVFile] = []
        var parts: [String: [SheetPart]] = [:]
        let tables = ReportTable.tables(of: report)
        for table in tables {
            if let streamed = streamedFiles[table.fileName] {
                csvFiles.append(streamed.file)
                parts[table.fileName] = streamed.sheets
                continue
            }
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

        // The workbook: after the Summary, the streamed platform fees, the Payouts sheet (added empty before the
        // streamed payout transactions, filled now) and the payout transactions, one sheet (or more, past Excel's
        // row limit) per table in WorkbookSheet order, then Run; the Summary is filled last, when every sheet its
        // formulas and charts refer to exists.
        for kind in WorkbookSheet.allCases {
            switch kind {
            case .summary, .platformFees, .payoutTransactions:
                continue
            case .balance:
                guard let balanceSheet else { preconditionFailure("the Balance sheet is added when the stream starts") }
                try writer.writeWhole(BalanceSheet.table(report.balance), on: balanceSheet)
            case .run:
                _ = try writer.write(
                    RunSheet.table(
                        metadata: metadata, csvFiles: csvFiles, workbookName: workbookName,
                        unknownDecimals: unknownDecimals))
            case .payouts:
                guard let payoutsSheet else {
                    preconditionFailure("the Payouts sheet is added with the payout transactions")
                }
                let table = ReportTable.payouts(report.payouts)
                parts[table.fileName] = try writer.write(table, onReserved: payoutsSheet)
            case .transferGroups:
                guard let transferGroupsSheet else {
                    preconditionFailure("the Transfer groups sheet is added with the payout transactions")
                }
                let table = ReportTable.transferGroups(report.transferGroups)
                parts[table.fileName] = try writer.write(table, onReserved: transferGroupsSheet)
            default:
                guard let table = ReportTable.table(kind, of: report) else { continue }
                parts[table.fileName] = try writer.write(table)
            }
        }
        try options.faultInjection?(.afterSheets)
        guard let summarySheet else { preconditionFailure("the Summary sheet is added when the stream starts") }
        var checkTotals = totals
        checkTotals.add(report)
        let columns = tables.map { ($0.fileName, $0.columns) }
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
        let zipLevelApplied = try writer.close()
        try syncPath(workbookPath)
        timings.workbookClose += clock.lap()
        // The CSV files' writing to the disk began when each was finished; it went on while the workbook was zipped.
        for file in csvFiles { try syncPath(temporary + "/" + file.name) }
        timings.csv += clock.lap()
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
            amountsWithUnknownDecimals: unknownDecimals, workbookZipLevel: zipLevelApplied ? Workbook.zipLevel : nil)
    }

    /// Drops the unfinished report: closes what is open and removes the hidden folder; the previous report of
    /// the range stays as it was. Does nothing once finished (or already abandoned).
    public func abandon() {
        guard !finished else { return }
        _ = platformFees.take()
        _ = payoutTransactions.take()
        _ = workbook.take()
        ReportFolder.removeTree(temporary)
        finished = true
    }
}
