import CXlsxWriter
import Foundation
import ReconCore
import TestSupport
import Testing

@testable import Reports

/// A table's rows put in a sheet's stream as bytes (``SheetRowXML``) read as libxlsxwriter's own, byte for byte, but
/// for amounts, which are their exact decimals.
@Suite(
    "XLSX rows as bytes",
    .enabled(if: Python.executable != nil || ProcessInfo.processInfo.environment["CI"] != nil, "needs python3"))
struct SheetRowXMLTests {
    static let columns = [
        Column("id", .identifier), Column("amount", .amount), Column("count", .count), Column("created_utc", .time),
        Column("note", .text),
    ]

    /// Writes `rows` under `columns`' header on two sheets of one workbook: `Rows` through
    /// ``WorkbookWriter/writeRow(_:sheet:row:)``, `Cells` cell by cell through libxlsxwriter; `after` then runs on
    /// the `Rows` sheet. Returns each sheet's `<dimension>` and `<sheetData>` (the sheets differ elsewhere: the first is selected).
    static func bothWays(
        _ rows: [[Cell]], columns: [Column] = columns,
        after: (inout WorkbookWriter, UnsafeMutablePointer<lxw_worksheet>) throws -> Void = { _, _ in }
    ) throws -> (rows: String, cells: String) {
        let scratch = try TemporaryFolder()
        let path = scratch.url.appendingPathComponent("rows.xlsx").path
        var writer = try WorkbookWriter(path: path, temporaryDirectory: scratch.url.path, maxRowsPerSheet: 1_000)
        let byRows = try writer.reserveSheet(named: "Rows")
        let byCells = try writer.reserveSheet(named: "Cells")
        for sheet in [byRows, byCells] {
            for (index, column) in columns.enumerated() {
                #expect(
                    worksheet_write_string(sheet, 0, lxw_col_t(index), column.label, writer.headerFormat(column.kind))
                        == LXW_NO_ERROR)
            }
        }
        for (index, cells) in rows.enumerated() {
            try writer.writeRow(cells, sheet: byRows, row: index + 1)
            for (column, cell) in cells.enumerated() {
                try writer.writeCell(cell, sheet: byCells, row: index + 1, column: column)
            }
        }
        try after(&writer, byRows)
        try writer.close()
        let script = """
            import json, re, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            sheets = []
            for name in ('xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml'):
                xml = z.read(name).decode()
                dimension = re.search('<dimension[^>]*>', xml).group(0)
                sheets.append(dimension + xml[xml.index('<sheetData'):xml.index('</sheetData>')])
            print(json.dumps(sheets))
            """
        let result = try Python.run(["-c", script, path])
        let sheets = try JSONDecoder().decode([String].self, from: Data(result.output.utf8))
        try #require(sheets.count == 2, "\(result.error)")
        return (sheets[0], sheets[1])
    }

    /// Amounts in yen here: a whole number prints the same either way (decimals: the next test).
    @Test func textCountsTimesAndUnknownDecimalsAreWhatLibxlsxwriterWrites() throws {
        let texts = [
            "ch_1", "a&b<c>d\"e'", "control\u{01}and\u{1F}", " leading", "trailing ", "\ttab", "line\nbreak",
            "\u{0B}vertical tab", "cut at\u{0}a NUL", "é 日本 🇯🇵", "_x0041_ as typed", "=1+2", "\r", "",
        ]
        var rows = texts.enumerated().map { index, text -> [Cell] in
            [
                .text(text), .amount(877 + Int64(index), .jpy), .count(index - 3),
                .time(1_764_000_000 + Int64(index) * 3_601), .text("row \(index)"),
            ]
        }
        rows.append([.text("no currency"), .amount(-12_345, nil), .count(1_000_000), .time(0), .empty])
        rows.append([.empty, .empty, .empty, .empty, .empty])  // no cell: no row
        rows.append([.empty, .amount(-5, .jpy), .empty, .time(-86_400), .text("")])
        rows.append([.text("yen"), .amount(1_234, .jpy), .count(0), .time(1_764_000_000), .empty])

        let sheets = try Self.bothWays(rows)

        #expect(sheets.rows == sheets.cells)
        #expect(sheets.rows.hasPrefix("<dimension ref=\"A1:E19\"/>"))
        #expect(sheets.rows.contains("<t>a&amp;b&lt;c&gt;d\"e'</t>"))
        #expect(!sheets.rows.contains("<row r=\"17\">"), "a row without cells is not written")
    }

    @Test func secondsAreWhatLibxlsxwriterWrites() throws {
        let sheets = try Self.bothWays(
            [[.text("read"), .seconds(4.203250518)], [.text("tiny"), .seconds(0.1)], [.text("none"), .seconds(0)]],
            columns: [Column("phase", .text), Column("seconds", .count)])
        #expect(sheets.rows == sheets.cells)
    }

    @Test func amountsAreTheirExactDecimalsAsInTheCSV() throws {
        let amounts: [(Int64, Currency, String)] = [
            (8_735, .usd, "87.35"), (-8_735, .usd, "-87.35"), (0, .usd, "0.00"), (-5, .usd, "-0.05"),
            (8_770, .bhd, "8.770"), (1_234, .jpy, "1234"), (.max, .usd, "92233720368547758.07"),
            (.min, .usd, "-92233720368547758.08"),
        ]
        let sheets = try Self.bothWays(amounts.map { [.text("x"), .amount($0.0, $0.1)] })
        for (index, (minorUnits, currency, text)) in amounts.enumerated() {
            #expect(sheets.rows.contains("<c r=\"B\(index + 2)\" s=\""), "\(minorUnits) \(currency)")
            #expect(sheets.rows.contains("><v>\(text)</v></c>"), "\(minorUnits) \(currency)")
            #expect(text == MinorUnitFormatter.string(minorUnits, exponent: currency.exponent ?? -1))
        }
        // libxlsxwriter prints the Double to 16 digits: 87.34999999999999.
        #expect(sheets.cells.contains("<v>87.34999999999999</v>"))
    }

    @Test func cellsWrittenThroughLibxlsxwriterAfterTheRowsFollowThem() throws {
        let sheets = try Self.bothWays([[.text("a"), .amount(100, .usd)]]) { writer, sheet in
            #expect(worksheet_write_string(sheet, 3, 2, "a note under the table", writer.noteFormat) == LXW_NO_ERROR)
            // A row the sheet has passed is refused, as libxlsxwriter refuses it in constant-memory mode.
            #expect(worksheet_write_string(sheet, 1, 0, "too late", nil) != LXW_NO_ERROR)
        }
        #expect(sheets.rows.hasPrefix("<dimension ref=\"A1:E4\"/>"))
        let order = ["<row r=\"1\">", "<row r=\"2\">", "<row r=\"4\">"].compactMap { sheets.rows.range(of: $0) }
        #expect(
            order.count == 3 && order[0].lowerBound < order[1].lowerBound && order[1].lowerBound < order[2].lowerBound)
        #expect(sheets.rows.contains("a note under the table") && !sheets.rows.contains("too late"))
    }
}
