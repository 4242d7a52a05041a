import Foundation
import ReconCore

/// A table written as its rows are made: each batch goes to its CSV file and to its sheet (sized from its first
/// rows, see ``SizedSheet``) as it comes, so a table of millions of rows is never held.
struct StreamedTable<Row>: ~Copyable {
    let fileName: String
    private let path: String
    private var csv: CSVWriter
    private var sheet: SizedSheet<Row>
    private let table: ([Row]) -> ReportTable
    private(set) var rowCount = 0

    /// Starts `table`'s CSV file (its header written) in `folder`; its sheet starts with the first rows.
    init(_ table: @escaping ([Row]) -> ReportTable, in folder: String) throws(ReportError) {
        let empty = table([])
        fileName = empty.fileName
        path = folder + "/" + empty.fileName
        var file = try CSVWriter(path: path)
        try file.writeHeader(empty.columns)
        csv = consume file
        sheet = SizedSheet(table)
        self.table = table
    }

    /// Writes `rows` after those before: the CSV file first, then the sheet; each step's seconds go to `timings`.
    mutating func append(
        _ rows: [Row], into writer: inout WorkbookWriter, timings: inout ReportStream.Timings
    ) throws(ReportError) {
        guard !rows.isEmpty else { return }
        var clock = WriterClock()
        try csv.writeRows(table(rows))
        rowCount += rows.count
        timings.csv += clock.lap()
        try sheet.append(rows, into: &writer)
        timings.workbookRows += clock.lap()
    }

    /// Ends the table: its sheet (with the header alone when it has no rows) and its file, closed (synced with the
    /// report's other files before the report is put in place).
    consuming func finish(
        _ writer: inout WorkbookWriter
    ) throws(ReportError) -> (file: ReportFiles.CSVFile, unknownDecimals: Int, sheets: [SheetPart]) {
        let sheets = try sheet.end(&writer)
        let result = try csv.finish()
        let file = ReportFiles.CSVFile(
            name: fileName, url: URL(fileURLWithPath: path), sha256: result.sha256, byteCount: result.byteCount,
            rowCount: rowCount)
        return (file, result.unknownDecimals, sheets)
    }
}
