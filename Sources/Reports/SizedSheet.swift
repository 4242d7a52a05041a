/// A table streamed into the workbook batch by batch, whose columns are sized from its first rows: the rows are
/// held until there are ``WorkbookWriter/widthSampleRows`` of them (or the table ends), then the sheet starts with the widths they
/// give, exactly as a whole table written at once is sized, and later batches go straight to it.
struct SizedSheet<Row> {
    /// The table of some rows (its columns and how each row fills them).
    private let table: ([Row]) -> ReportTable
    private var held: [Row] = []
    private var stream: SheetStream?

    init(_ table: @escaping ([Row]) -> ReportTable) {
        self.table = table
    }

    /// Writes `rows` after those before, holding them while the columns are not sized yet.
    mutating func append(_ rows: [Row], into writer: inout WorkbookWriter) throws(ReportError) {
        guard var started = stream else {
            held += rows
            if held.count >= WorkbookWriter.widthSampleRows { try start(&writer) }
            return
        }
        defer { stream = started }
        try writer.append(table(rows), to: &started)
    }

    /// Ends the table (starting its sheet if no batch did, with its header alone when it has no rows) and returns
    /// the sheets it filled.
    mutating func end(_ writer: inout WorkbookWriter) throws(ReportError) -> [SheetPart] {
        if stream == nil { try start(&writer) }
        guard var started = stream else { return [] }
        defer { stream = started }
        return try writer.end(&started)
    }

    /// Sizes the columns from the rows held and writes them.
    private mutating func start(_ writer: inout WorkbookWriter) throws(ReportError) {
        let sample = table(held)
        var started = SheetStream(
            sheetName: sample.sheetName, columns: sample.columns, widths: WorkbookWriter.columnWidths(sample))
        try writer.append(sample, to: &started)
        held = []
        stream = started
    }
}
