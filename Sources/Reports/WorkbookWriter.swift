import CXlsxWriter
import ReconCore

/// One sheet a table's rows landed on: the first, or a continuation (`Ledger (2)`).
struct SheetPart {
    let name: String
    /// Data rows on this sheet: rows 2 … `dataRows + 1` in Excel's numbering (row 1 is the header).
    let dataRows: Int
    /// Valid until the workbook closes.
    let sheet: UnsafeMutablePointer<lxw_worksheet>
}

/// A table being written row by row: its current sheet and the sheets it has filled.
struct SheetStream {
    let sheetName: String
    let columns: [Column]
    let widths: [Double]
    fileprivate(set) var parts: [SheetPart] = []
    fileprivate var sheet: UnsafeMutablePointer<lxw_worksheet>?
    fileprivate var rowsHere = 0

    init(sheetName: String, columns: [Column], widths: [Double]) {
        self.sheetName = sheetName
        self.columns = columns
        self.widths = widths
    }
}

/// A formula and the result a reader without a calculation engine shows for it.
struct FormulaCell {
    let formula: String
    /// `.amount` or `.count`: the value libxlsxwriter stores as the formula's cached result.
    let cachedResult: Cell
}

/// Writes report tables into a streaming workbook: typed cells, a bold frozen header, an autofilter over the
/// data, column widths, and continuation sheets past `maxRowsPerSheet` rows (header included).
struct WorkbookWriter: ~Copyable {
    /// Excel's row limit per sheet, the header row included.
    static let excelMaxRows = 1_048_576
    /// Excel's limit on the characters of one cell.
    static let excelMaxCellCharacters = 32_767

    let workbook: Workbook
    private let maxRowsPerSheet: Int
    /// The printed pages' header (libxlsxwriter's `&L`… codes), or empty.
    private let printHeader: String
    private let formats: Formats
    private var amountFormats: [UnsafeMutablePointer<lxw_format>?] = Array(repeating: nil, count: 19)
    /// The tables' rows, put in their sheets' streams as bytes (``SheetRowXML``).
    private var rowXML = SheetRowXML()
    private(set) var sheetNames: [String] = []

    var headerFormat: UnsafeMutablePointer<lxw_format> { formats.header }
    var numberHeaderFormat: UnsafeMutablePointer<lxw_format> { formats.numberHeader }

    /// The header format for a column of `kind`.
    func headerFormat(_ kind: ColumnKind) -> UnsafeMutablePointer<lxw_format> {
        kind == .amount || kind == .count ? numberHeaderFormat : headerFormat
    }
    var countFormat: UnsafeMutablePointer<lxw_format> { formats.count }
    private var timeFormat: UnsafeMutablePointer<lxw_format> { formats.time }
    private var secondsFormat: UnsafeMutablePointer<lxw_format> { formats.seconds }
    private var unknownDecimalsFormat: UnsafeMutablePointer<lxw_format> { formats.unknownDecimals }
    var noteFormat: UnsafeMutablePointer<lxw_format> { formats.note }
    var titleFormat: UnsafeMutablePointer<lxw_format> { formats.title }

    /// The workbook's fixed cell formats (owned by the workbook).
    private struct Formats {
        let header, numberHeader, count, time, seconds, unknownDecimals, note, title: UnsafeMutablePointer<lxw_format>

        init(_ workbook: borrowing Workbook) throws(ReportError) {
            header = try workbook.addFormat()
            format_set_bold(header)
            format_set_bg_color(header, 0xDDE4EE)
            format_set_bottom(header, UInt8(LXW_BORDER_THIN.rawValue))
            // Over a column of numbers the label is right-aligned, as the numbers are.
            numberHeader = try workbook.addFormat()
            format_set_bold(numberHeader)
            format_set_bg_color(numberHeader, 0xDDE4EE)
            format_set_bottom(numberHeader, UInt8(LXW_BORDER_THIN.rawValue))
            format_set_align(numberHeader, UInt8(LXW_ALIGN_RIGHT.rawValue))
            count = try workbook.addFormat()
            format_set_num_format(count, "#,##0")
            time = try workbook.addFormat()
            // A real date-time (sortable, filterable by date) that shows the CSV's text: 2026-11-20T13:45:07Z.
            format_set_num_format(time, "yyyy-mm-dd\"T\"hh:mm:ss\"Z\"")
            format_set_align(time, UInt8(LXW_ALIGN_LEFT.rawValue))
            seconds = try workbook.addFormat()
            format_set_num_format(seconds, "#,##0.000")
            unknownDecimals = try workbook.addFormat()
            format_set_italic(unknownDecimals)
            format_set_font_color(unknownDecimals, 0xC65911)
            note = try workbook.addFormat()
            format_set_italic(note)
            title = try workbook.addFormat()
            format_set_bold(title)
            format_set_font_size(title, 12)
        }
    }

    /// `printTitle` heads every printed page (`Reconciliation 2026-11-20_2026-11-21`).
    init(path: String, temporaryDirectory: String, maxRowsPerSheet: Int, printTitle: String = "") throws(ReportError) {
        precondition(maxRowsPerSheet >= 2 && maxRowsPerSheet <= Self.excelMaxRows, "a sheet holds 2…1,048,576 rows")
        let workbook = try Workbook(path: path, temporaryDirectory: temporaryDirectory)
        let formats = try Formats(workbook)
        self.workbook = workbook
        self.formats = formats
        self.maxRowsPerSheet = maxRowsPerSheet
        self.printHeader =
            printTitle.isEmpty
            ? ""
            : "&L&\"-,Bold\""
                + printTitle.split(separator: "&", omittingEmptySubsequences: false).joined(separator: "&&")
    }

    /// `Ledger` for the first part, `Ledger (2)`, `Ledger (3)`… after it.
    static func sheetName(_ base: String, part: Int) -> String { part == 1 ? base : "\(base) (\(part))" }

    /// `#,##0.00;[Red]-#,##0.00` for exponent 2: the currency's decimals, thousands grouped, negatives red.
    static func amountNumberFormat(exponent: Int) -> String {
        let positive = exponent == 0 ? "#,##0" : "#,##0." + String(repeating: "0", count: exponent)
        return "\(positive);[Red]-\(positive)"
    }

    // MARK: Tables

    /// Writes `table` from its first row to its last, continuing on a new sheet whenever one is full, and returns
    /// its sheets. With `reserved` (a sheet of ``reserveSheet(named:)`` named after the table) the table starts on
    /// it; a table longer than a sheet continues on sheets added now, after the last one added so far.
    mutating func write(
        _ table: ReportTable, onReserved reserved: UnsafeMutablePointer<lxw_worksheet>? = nil
    ) throws(ReportError) -> [SheetPart] {
        var stream = SheetStream(sheetName: table.sheetName, columns: table.columns, widths: Self.columnWidths(table))
        if let reserved {
            try prepare(reserved, named: table.sheetName, columns: table.columns, widths: stream.widths)
            stream.sheet = reserved
        }
        try append(table, to: &stream)
        return try end(&stream)
    }

    /// Writes `table` whole on the reserved `sheet`, however many rows a sheet may hold (a sheet laid out as a report
    /// of its own, of a few dozen rows at most, such as ``BalanceSheet``): its header frozen and filterable, as every
    /// sheet's.
    mutating func writeWhole(
        _ table: ReportTable, on sheet: UnsafeMutablePointer<lxw_worksheet>
    ) throws(ReportError) {
        try prepare(sheet, named: table.sheetName, columns: table.columns, widths: Self.columnWidths(table))
        var cells: [Cell] = []
        cells.reserveCapacity(table.columns.count)
        for index in 0..<table.rowCount {
            cells.removeAll(keepingCapacity: true)
            table.fill(index, &cells)
            try writeRow(cells, sheet: sheet, row: index + 1)
        }
        check(
            worksheet_autofilter(sheet, 0, 0, lxw_row_t(table.rowCount), lxw_col_t(max(table.columns.count - 1, 0))),
            "set the autofilter of '\(table.sheetName)'")
    }

    /// Writes every row of `table` to `stream`'s table.
    mutating func append(_ table: ReportTable, to stream: inout SheetStream) throws(ReportError) {
        var cells: [Cell] = []
        cells.reserveCapacity(table.columns.count)
        for index in 0..<table.rowCount {
            cells.removeAll(keepingCapacity: true)
            table.fill(index, &cells)
            try append(cells, to: &stream)
        }
    }

    /// Writes one row of `stream`'s table, starting its first sheet or a continuation sheet as needed.
    mutating func append(_ cells: [Cell], to stream: inout SheetStream) throws(ReportError) {
        if stream.sheet == nil || stream.rowsHere == maxRowsPerSheet - 1 {
            try finishSheet(of: &stream)
            let name = Self.sheetName(stream.sheetName, part: stream.parts.count + 1)
            stream.sheet = try beginSheet(named: name, columns: stream.columns, widths: stream.widths)
            stream.rowsHere = 0
        }
        guard let sheet = stream.sheet else { return }
        stream.rowsHere += 1
        try writeRow(cells, sheet: sheet, row: stream.rowsHere)
    }

    /// Ends `stream`'s table (a table without rows still gets its sheet, with the header) and returns its sheets.
    mutating func end(_ stream: inout SheetStream) throws(ReportError) -> [SheetPart] {
        if stream.sheet == nil, stream.parts.isEmpty {
            stream.sheet = try beginSheet(
                named: Self.sheetName(stream.sheetName, part: 1), columns: stream.columns, widths: stream.widths)
            stream.rowsHere = 0
        }
        try finishSheet(of: &stream)
        return stream.parts
    }

    /// Sets the autofilter of `stream`'s current sheet over its rows and records it as a part.
    private func finishSheet(of stream: inout SheetStream) throws(ReportError) {
        guard let sheet = stream.sheet else { return }
        let name = Self.sheetName(stream.sheetName, part: stream.parts.count + 1)
        check(
            worksheet_autofilter(sheet, 0, 0, lxw_row_t(stream.rowsHere), lxw_col_t(stream.columns.count - 1)),
            "set the autofilter of '\(name)'")
        stream.parts.append(SheetPart(name: name, dataRows: stream.rowsHere, sheet: sheet))
        stream.sheet = nil
    }

    /// Adds an empty sheet now, to be filled later (in constant-memory mode each sheet keeps its own row
    /// cursor, so a sheet added first can be written last, top to bottom). It prints like every other sheet.
    mutating func reserveSheet(named name: String) throws(ReportError) -> UnsafeMutablePointer<lxw_worksheet> {
        let sheet = try workbook.addWorksheet(named: name)
        sheetNames.append(name)
        setUpPrinting(sheet, name: name)
        return sheet
    }

    /// Every sheet prints landscape, one page wide (as many pages high as it takes), its header row repeated on
    /// each page, the report's title in the page header, the sheet's name and the page number in the footer.
    private func setUpPrinting(_ sheet: UnsafeMutablePointer<lxw_worksheet>, name: String) {
        worksheet_set_landscape(sheet)
        worksheet_fit_to_pages(sheet, 1, 0)
        worksheet_set_margins(sheet, 0.4, 0.4, 0.5, 0.6)
        check(worksheet_repeat_rows(sheet, 0, 0), "repeat the header row of '\(name)' on each printed page")
        check(worksheet_set_footer(sheet, "&L&A&RPage &P of &N"), "set the footer of '\(name)'")
        if !printHeader.isEmpty { check(worksheet_set_header(sheet, printHeader), "set the header of '\(name)'") }
    }

    private mutating func beginSheet(
        named name: String, columns: [Column], widths: [Double]
    ) throws(ReportError) -> UnsafeMutablePointer<lxw_worksheet> {
        let sheet = try workbook.addWorksheet(named: name)
        sheetNames.append(name)
        try prepare(sheet, named: name, columns: columns, widths: widths)
        setUpPrinting(sheet, name: name)
        return sheet
    }

    /// Sizes the columns of `sheet`, freezes and writes its header row.
    private func prepare(
        _ sheet: UnsafeMutablePointer<lxw_worksheet>, named name: String, columns: [Column], widths: [Double]
    ) throws(ReportError) {
        for (column, width) in widths.enumerated() {
            _ = worksheet_set_column(sheet, lxw_col_t(column), lxw_col_t(column), width, nil)
        }
        worksheet_freeze_panes(sheet, 1, 0)
        for (column, header) in columns.enumerated() {
            try checked(
                worksheet_write_string(sheet, 0, lxw_col_t(column), header.label, headerFormat(header.kind)),
                sheet: name)
        }
    }

    /// Writes a table's row `row` (0-based; the header is row 0) of `cells` in `sheet` (``SheetRowXML``): the cells
    /// ``writeCell(_:sheet:row:column:)`` would write, an amount as its exact decimal.
    mutating func writeRow(
        _ cells: [Cell], sheet: UnsafeMutablePointer<lxw_worksheet>, row: Int
    ) throws(ReportError) {
        rowXML.begin(row: row, of: sheet)
        for (column, cell) in cells.enumerated() {
            switch cell {
            case .text(let text):
                rowXML.text(Self.cellText(FormulaGuard.neutralised(text)), column: column, style: 0)
            case .amount(let minorUnits, let currency):
                if let exponent = CellText.exponent(of: currency) {
                    let style = lxw_format_get_xf_index(try amountFormat(exponent: exponent))
                    rowXML.amount(minorUnits, exponent: exponent, column: column, style: style)
                } else {
                    rowXML.text(
                        CellText.unknownDecimals(minorUnits), column: column,
                        style: lxw_format_get_xf_index(unknownDecimalsFormat))
                }
            case .count(let count):
                rowXML.integer(count, column: column, style: lxw_format_get_xf_index(countFormat))
            case .time(let unixSeconds):
                rowXML.double(
                    lxw_unixtime_to_excel_date(unixSeconds), column: column,
                    style: lxw_format_get_xf_index(timeFormat))
            case .seconds(let seconds):
                rowXML.double(seconds, column: column, style: lxw_format_get_xf_index(secondsFormat))
            case .empty:
                continue
            }
        }
        try rowXML.write(to: sheet, path: workbook.path)
    }

    /// Writes one cell through libxlsxwriter, for sheets laid out cell by cell (the Summary); a table's rows go
    /// through ``writeRow(_:sheet:row:)``.
    mutating func writeCell(
        _ cell: Cell, sheet: UnsafeMutablePointer<lxw_worksheet>, row: Int, column: Int
    ) throws(ReportError) {
        let row = lxw_row_t(row)
        let column = lxw_col_t(column)
        let result: lxw_error
        switch cell {
        case .text(let text):
            result = worksheet_write_string(sheet, row, column, Self.cellText(FormulaGuard.neutralised(text)), nil)
        case .amount(let minorUnits, let currency):
            if let exponent = CellText.exponent(of: currency) {
                // The one place a Double is made: minor units / 10^exponent, for a number cell.
                let value = Double(minorUnits) / Self.powersOfTen[exponent]
                result = worksheet_write_number(sheet, row, column, value, try amountFormat(exponent: exponent))
            } else {
                result = worksheet_write_string(
                    sheet, row, column, CellText.unknownDecimals(minorUnits), unknownDecimalsFormat)
            }
        case .count(let count):
            result = worksheet_write_number(sheet, row, column, Double(count), countFormat)
        case .time(let unixSeconds):
            result = worksheet_write_unixtime(sheet, row, column, unixSeconds, timeFormat)
        case .seconds(let seconds):
            result = worksheet_write_number(sheet, row, column, seconds, secondsFormat)
        case .empty:
            return
        }
        try checked(result, sheet: "row \(row + 1)")
    }

    mutating func amountFormat(exponent: Int) throws(ReportError) -> UnsafeMutablePointer<lxw_format> {
        if let format = amountFormats[exponent] { return format }
        let format = try workbook.addFormat()
        format_set_num_format(format, Self.amountNumberFormat(exponent: exponent))
        amountFormats[exponent] = format
        return format
    }

    // MARK: Closing

    /// Writes the `.xlsx` file; returns whether it was zipped at ``Workbook/zipLevel`` (see `CDeflateLevel`).
    @discardableResult
    consuming func close() throws(ReportError) -> Bool {
        try workbook.close()
    }

    // MARK: Helpers

    /// Throws when `result` is an error; `sheet` (what was written) is only made then: a cell's write calls this once
    /// per cell, millions of times a report.
    func checked(_ result: lxw_error, sheet: @autoclosure () -> String) throws(ReportError) {
        guard result == LXW_NO_ERROR else {
            throw .workbook(path: workbook.path, operation: "write \(sheet())", reason: Workbook.describe(result))
        }
    }

    func check(_ result: lxw_error, _ operation: String) {
        assert(result == LXW_NO_ERROR, "\(operation): \(Workbook.describe(result))")
    }

    /// Excel holds at most 32,767 characters in a cell; longer text is cut there (the CSV keeps all of it).
    static func cellText(_ text: String) -> String {
        guard text.utf8.count > excelMaxCellCharacters, text.unicodeScalars.count > excelMaxCellCharacters else {
            return text
        }
        let marker = " [cut: longer than Excel allows in a cell; see the CSV]"
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.prefix(excelMaxCellCharacters - marker.unicodeScalars.count))
        return String(scalars) + marker
    }

    /// 10^0 … 10^18 as `Double`s, each exact (5^18 has fewer than 53 bits).
    static let powersOfTen: [Double] = UInt64.powersOfTen.prefix(19).map { Double($0) }

    /// The rows a table's column widths are measured on: its first thousand.
    static let widthSampleRows = 1_000

    /// Characters per column: the header label or the widest of the first 1,000 rows, plus padding, within 8…60.
    static func columnWidths(_ table: ReportTable) -> [Double] {
        var widths = table.columns.map { column -> Int in
            switch column.kind {
            case .time: max(column.label.count, 20)
            default: column.label.count
            }
        }
        var cells: [Cell] = []
        for index in 0..<min(table.rowCount, Self.widthSampleRows) {
            cells.removeAll(keepingCapacity: true)
            table.fill(index, &cells)
            for (column, cell) in cells.enumerated() where column < widths.count {
                widths[column] = max(widths[column], displayWidth(cell))
            }
        }
        return widths.map { Double(min(max($0 + 2, 8), 60)) }
    }

    static func displayWidth(_ cell: Cell) -> Int {
        switch cell {
        case .text(let text): return FormulaGuard.neutralised(text).count
        case .amount(let minorUnits, let currency):
            guard let exponent = CellText.exponent(of: currency) else {
                return CellText.unknownDecimals(minorUnits).count
            }
            let digits = String(minorUnits.magnitude).count
            let whole = max(digits - exponent, 1)
            return whole + (whole - 1) / 3 + (exponent > 0 ? exponent + 1 : 0) + (minorUnits < 0 ? 1 : 0)
        case .count(let count): return String(count).count + String(count).count / 3
        case .time: return 20
        case .seconds: return 10
        case .empty: return 0
        }
    }
}
