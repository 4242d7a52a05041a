import CDeflateLevel
import CXlsxWriter
import Foundation
import TestSupport
import Testing

/// Inside the close's bracket a streamed sheet's rows are joined to its XML where they lie instead of being copied
/// (`Sources/CDeflateLevel/joined_sheets.c`): the zipped sheets are the same bytes libxlsxwriter's own copy makes.
@Suite(
    "The workbook close's joined sheets",
    .enabled(if: Python.executable != nil || ProcessInfo.processInfo.environment["CI"] != nil, "needs python3"))
struct JoinedSheetsTests {
    /// A constant-memory workbook at `path` with two sheets of `rows` rows (several MiB: more than a stream's buffer
    /// and a zip piece) and one without rows, closed inside the close's bracket or not (then libxlsxwriter copies the
    /// rows itself); returns how many sheets the last bracket joined.
    private static func workbook(at path: String, rows: Int, closing: Bool) throws -> Int32 {
        let scratch = try TemporaryFolder()
        let directory = strdup(scratch.url.path)
        defer { free(directory) }
        var options = lxw_workbook_options(constant_memory: 1, tmpdir: directory, use_zip64: 0)
        let workbook = try #require(workbook_new_opt(path, &options))
        for name in ["Fees", "Transactions"] {
            let sheet = try #require(workbook_add_worksheet(workbook, name))
            for row in 0..<rows {
                let number = lxw_row_t(row)
                #expect(worksheet_write_string(sheet, number, 0, "txn_\(name)_\(row)_<&>", nil) == LXW_NO_ERROR)
                #expect(worksheet_write_number(sheet, number, 1, Double(row) / 100, nil) == LXW_NO_ERROR)
                #expect(
                    worksheet_write_string(sheet, number, 2, String(repeating: "x", count: row % 97), nil)
                        == LXW_NO_ERROR)
            }
        }
        _ = try #require(workbook_add_worksheet(workbook, "Empty"))
        if closing { deflate_level_begin(1) }
        let result = workbook_close(workbook)
        if closing { _ = deflate_level_end() }
        try #require(result == LXW_NO_ERROR, "workbook_close: \(result)")
        return closing_streams_joined_sheets()
    }

    /// Each sheet's XML in the zip at `path`, after Python's zipfile checked every entry's CRC.
    private static func sheets(_ path: String) throws -> [String] {
        let script = """
            import json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            print(json.dumps([z.read('xl/worksheets/sheet%d.xml' % n).decode() for n in (1, 2, 3)]))
            """
        let result = try Python.run(["-c", script, path])
        try #require(result.status == 0, "\(result.error)")
        return try JSONDecoder().decode([String].self, from: Data(result.output.utf8))
    }

    #if os(Linux)
        @Test("the close joins each sheet with rows, and its XML is the bytes libxlsxwriter's own copy makes")
        func joinedSheetsAreTheSameXMLAsCopiedOnes() throws {
            let scratch = try TemporaryFolder()
            let joined = scratch.url.appendingPathComponent("joined.xlsx").path
            let copied = scratch.url.appendingPathComponent("copied.xlsx").path
            #expect(try Self.workbook(at: joined, rows: 40_000, closing: true) == 2)
            _ = try Self.workbook(at: copied, rows: 40_000, closing: false)
            let joinedSheets = try Self.sheets(joined)
            let copiedSheets = try Self.sheets(copied)
            #expect(joinedSheets == copiedSheets)
            #expect(joinedSheets[1].contains("txn_Transactions_39999_&lt;&amp;&gt;"))
            #expect(joinedSheets[1].hasSuffix("</worksheet>"))
            #expect(joinedSheets[2].contains("<sheetData/>"))
        }
    #endif
}
