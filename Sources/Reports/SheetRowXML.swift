import CXlsxWriter
import ReconCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One data row of a worksheet as the SpreadsheetML libxlsxwriter writes for it, put straight into the sheet's
/// stream (its temporary file in constant-memory mode) rather than cell by cell through `worksheet_write_*`.
///
/// Why: a report's detail sheets hold millions of cells, and libxlsxwriter spends most of its time on them in
/// `malloc` (a cell a call) and `fprintf` (its XML and a `%.16G` per number); docs/BENCHMARKS.md, "Two readers, and
/// the workbook's rows as bytes". The elements are libxlsxwriter 1.1's, byte for byte (`SheetRowXMLTests` compares
/// the two), with one difference on purpose: an amount's value is its exact decimal, the CSV's text (`87.35`), where
/// libxlsxwriter prints the `Double` to 16 digits (`87.34999999999999`). A spreadsheet reads either as the same
/// number in most cells, and the exact decimal as the nearest one in all.
///
/// The sheet's own state stays libxlsxwriter's: ``begin(row:of:)`` first writes the row libxlsxwriter still holds
/// (the header), and ``write(to:path:)`` writes the row and updates the sheet's dimensions and row cursor as
/// `worksheet_write_*` would, so cells written through libxlsxwriter after it (the Summary's notes under its table)
/// follow in order.
struct SheetRowXML: ~Copyable {
    private var bytes = ByteBuffer(capacity: 4_096)
    /// `A`, `B`, … `AA`: the column names, made once.
    private var columnNames: [ShortBytes] = []
    /// The row's number as Excel shows it (1-based), in digits (at most 7: Excel's last row is 1,048,576).
    private var rowDigits = ShortBytes()
    /// Where the row's digits are printed first.
    private var digits: [UInt8] = []
    private var row = 0
    private var firstColumn = Int.max
    private var lastColumn = -1

    /// Starts row `row` (0-based, libxlsxwriter's numbering) of `sheet`, after writing the row libxlsxwriter still
    /// holds for it (the header): so the header's formats are numbered first, as when libxlsxwriter writes every row.
    mutating func begin(row: Int, of sheet: UnsafeMutablePointer<lxw_worksheet>) {
        lxw_worksheet_write_single_row(sheet)
        self.row = row
        bytes.removeAll()
        digits.removeAll(keepingCapacity: true)
        UInt64(row + 1).appendDecimalDigits(to: &digits)
        rowDigits = ShortBytes(digits)
        firstColumn = Int.max
        lastColumn = -1
        append("<row r=\"")
        rowDigits.append(to: &bytes)
        append("\">")
    }

    // MARK: Cells

    /// A string cell, as `worksheet_write_string` writes it: cut at a NUL (a C string ends there), control
    /// characters as `_xHHHH_`, `&`, `<` and `>` as entities, `xml:space="preserve"` when it starts or ends with white
    /// space. Empty text is no cell, unless `style` is set (then a blank cell, as libxlsxwriter writes it).
    mutating func text(_ text: String, column: Int, style: Int32) {
        var text = text
        text.withUTF8 { utf8 in
            let length = utf8.firstIndex(of: 0) ?? utf8.count
            guard length > 0 else {
                if style != 0 { blank(column: column, style: style) }
                return
            }
            let value = UnsafeBufferPointer(rebasing: utf8[0..<length])
            startCell(column: column, style: style)
            append(" t=\"inlineStr\"><is>")
            let preserve =
                Self.isSpace(Self.firstEscaped(value[0])) || Self.isSpace(Self.lastEscaped(value[length - 1]))
            append(preserve ? "<t xml:space=\"preserve\">" : "<t>")
            if value.contains(where: Self.needsEscaping) {
                for byte in value { escape(byte) }
            } else {
                bytes.append(contentsOf: value)
            }
            append("</t></is></c>")
        }
    }

    /// An amount as its exact decimal (``MinorUnitFormatter``: the CSV's text).
    mutating func amount(_ minorUnits: Int64, exponent: Int, column: Int, style: Int32) {
        startCell(column: column, style: style)
        append("><v>")
        MinorUnitFormatter.append(minorUnits, exponent: exponent, to: &bytes)
        append("</v></c>")
    }

    /// A whole number (what `%.16G` prints for it, below 10^16).
    mutating func integer(_ value: Int, column: Int, style: Int32) {
        startCell(column: column, style: style)
        append("><v>")
        Int64(value).appendDecimalDigits(to: &bytes)
        append("</v></c>")
    }

    /// A number as libxlsxwriter prints it (`%.16G`, ``SixteenDigits``): a date-time's Excel serial, a duration.
    mutating func double(_ value: Double, column: Int, style: Int32) {
        startCell(column: column, style: style)
        append("><v>")
        SixteenDigits.append(value, to: &bytes)
        append("</v></c>")
    }

    private mutating func blank(column: Int, style: Int32) {
        startCell(column: column, style: style)
        append("/>")
    }

    // MARK: Writing

    /// Ends the row and writes it to `sheet`'s stream, unless it holds no cell (libxlsxwriter writes no row then).
    /// `path` names the workbook in an error.
    mutating func write(to sheet: UnsafeMutablePointer<lxw_worksheet>, path: String) throws(ReportError) {
        guard lastColumn >= 0 else { return }
        append("</row>")
        guard let pending = sheet.pointee.optimize_row, let file = sheet.pointee.file else {
            preconditionFailure("a report sheet streams (constant-memory mode)")
        }
        // ``begin(row:of:)`` wrote the row libxlsxwriter held; nothing may have been written for this row or after it.
        precondition(pending.pointee.row_num < lxw_row_t(row), "a sheet's rows are written top to bottom")
        let written = bytes.withBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else {
            let code = errno
            if code == ENOSPC || code == EDQUOT { throw .diskFull(path: path) }
            throw .workbook(
                path: path, operation: "write row \(row + 1) of sheet '\(String(cString: sheet.pointee.name))'",
                reason: String(cString: strerror(code)))
        }
        // As `worksheet_write_*` keeps them: the sheet's used range, and the row cursor a later write must pass.
        let rowNumber = lxw_row_t(row)
        sheet.pointee.dim_rowmin = min(sheet.pointee.dim_rowmin, rowNumber)
        sheet.pointee.dim_rowmax = max(sheet.pointee.dim_rowmax, rowNumber)
        sheet.pointee.dim_colmin = min(sheet.pointee.dim_colmin, lxw_col_t(firstColumn))
        sheet.pointee.dim_colmax = max(sheet.pointee.dim_colmax, lxw_col_t(lastColumn))
        pending.pointee.row_num = rowNumber
    }

    // MARK: Helpers

    private mutating func startCell(column: Int, style: Int32) {
        firstColumn = min(firstColumn, column)
        lastColumn = max(lastColumn, column)
        while columnNames.count <= column { columnNames.append(ShortBytes(Self.columnName(columnNames.count))) }
        append("<c r=\"")
        columnNames[column].append(to: &bytes)
        rowDigits.append(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        if style != 0 {
            append(" s=\"")
            UInt64(style).appendDecimalDigits(to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func append(_ text: StaticString) { bytes.append(text) }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "&"): append("&amp;")
        case UInt8(ascii: "<"): append("&lt;")
        case UInt8(ascii: ">"): append("&gt;")
        case _ where Self.isControl(byte):
            append("_x00")
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            bytes.append(UInt8(ascii: "_"))
        default: bytes.append(byte)
        }
    }

    /// A control character libxlsxwriter writes as `_xHHHH_` (all below a space but tab and line feed).
    private static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 && byte != 0x09 && byte != 0x0A }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        isControl(byte) || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
    }

    /// The first byte `byte` becomes once escaped (`_` for a control character, `&` for an entity).
    private static func firstEscaped(_ byte: UInt8) -> UInt8 {
        isControl(byte) ? UInt8(ascii: "_") : needsEscaping(byte) ? UInt8(ascii: "&") : byte
    }

    /// The last byte `byte` becomes once escaped (`_` for a control character, `;` for an entity).
    private static func lastEscaped(_ byte: UInt8) -> UInt8 {
        isControl(byte) ? UInt8(ascii: "_") : needsEscaping(byte) ? UInt8(ascii: ";") : byte
    }

    /// C's `isspace` in the C locale.
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `A` for 0, `Z` for 25, `AA` for 26, as Excel names columns.
    static func columnName(_ column: Int) -> [UInt8] {
        var name: [UInt8] = []
        var rest = column + 1
        while rest > 0 {
            let letter = (rest - 1) % 26
            name.insert(UInt8(ascii: "A") + UInt8(letter), at: 0)
            rest = (rest - 1) / 26
        }
        return name
    }
}
