import Foundation
import ReconCore
import Reports
import Testing

/// The workbook read back by a real reader: openpyxl, driven by a small python3 script.
@Suite("XLSX workbook", .enabled(if: Python.hasOpenpyxl, "\(Python.skipMessage)"))
struct WorkbookTests {
    static let sheetNames = [
        "Platform fees", "Skipped transfers", "Unreversed disputes", "Exceptions", "Ledger", "Summary", "Run",
    ]

    /// A written report, read back; holding it keeps its scratch folder alive.
    struct Written {
        var files: ReportFiles
        var dump: WorkbookDump
        var scratch: ScratchFolder
    }

    static func written(
        _ report: ReconciliationReport = Fixture.report(), options: WriteOptions = WriteOptions()
    ) throws -> Written {
        let scratch = try ScratchFolder()
        let metadata = try Fixture.metadata(resolved: [
            ReportMetadata.ResolvedFinding(kind: "skipped_transfer", objectID: "ch_0", firstSeenRun: 3)
        ])
        let files = try ReportWriter.write(report, metadata: metadata, to: scratch.url, options: options)
        return Written(files: files, dump: try Python.readWorkbook(files.workbook), scratch: scratch)
    }

    @Test func hasOneSheetPerCSVThenRunWithTheCSVColumns() throws {
        let written = try Self.written()
        let (files, dump) = (written.files, written.dump)
        #expect(dump.names == Self.sheetNames)
        #expect(files.sheetNames == Self.sheetNames)
        for (file, sheetName) in zip(files.csvFiles, Self.sheetNames) {
            let csvHeader = try text(file.url).prefix { $0 != "\n" }.split(separator: ",").map(String.init)
            #expect(try #require(dump.sheet(sheetName)).header == csvHeader, "\(sheetName)")
        }
        #expect(try #require(dump.sheet("Run")).header == ["section", "item", "value", "detail"])
    }

    @Test func everySheetHasABoldFrozenFilterableHeaderAndColumnWidths() throws {
        let dump = try Self.written().dump
        for sheet in dump.sheets {
            #expect(sheet.freeze == "A2", "\(sheet.name)")
            let filter = try #require(sheet.filter, "\(sheet.name) has no autofilter")
            #expect(filter.hasPrefix("A1:"), "\(sheet.name)")
            #expect(sheet.rows[0].allSatisfy { $0.bold }, "\(sheet.name)")
            #expect(sheet.widths.count == sheet.header.count, "\(sheet.name)")
            #expect(sheet.widths.values.allSatisfy { $0 >= 8 && $0 <= 61 }, "\(sheet.name)")
        }
        #expect(dump.sheet("Platform fees")?.filter == "A1:Q5")
        #expect(dump.sheet("Ledger")?.filter == "A1:F3")
    }

    @Test(
        "amounts are numbers in major units with the currency's decimals",
        arguments: [
            (0, "amount", 10.0, "#,##0.00;[Red]-#,##0.00"),
            (1, "destination_platform_fee", -8.77, "#,##0.00;[Red]-#,##0.00"),
            (2, "amount", 1_234_567.0, "#,##0;[Red]-#,##0"),
            (2, "application_fee_amount", 877.0, "#,##0;[Red]-#,##0"),
            (3, "amount", 10.0, "#,##0.000;[Red]-#,##0.000"),
            (3, "destination_platform_fee", 8.77, "#,##0.000;[Red]-#,##0.000"),
            (3, "platform_net", -0.05, "#,##0.00;[Red]-#,##0.00"),
        ])
    func amountsAreNumbersWithTheCurrencysDecimals(row: Int, column: String, value: Double, format: String) throws {
        let dump = try Self.written().dump
        let cell = try #require(dump.sheet("Platform fees")?.cell(row, column))
        #expect(cell.type == "n")
        #expect(cell.value == .number(value))
        #expect(cell.format == format)
    }

    @Test func optionalAmountsAreEmptyAndTimesAreRealDateTimes() throws {
        let dump = try Self.written().dump
        let fees = try #require(dump.sheet("Platform fees"))
        #expect(fees.cell(1, "stripe_fee")?.value == .null)
        #expect(fees.cell(3, "destination_account")?.value == .null)
        let created = try #require(fees.cell(0, "created_utc"))
        #expect(created.type == "d")
        #expect(created.value == .string("2026-11-20T13:45:07"))
        #expect(created.format == "yyyy-mm-dd\"T\"hh:mm:ss\"Z\"")
        #expect(try #require(dump.sheet("Exceptions")).cell(1, "message")?.value == .string("Zürich → 東京\nline 2"))
    }

    @Test func summaryHasTheTotalsPerCurrencyTheirChecksAndAChart() throws {
        let dump = try Self.written().dump
        let summary = try #require(dump.sheet("Summary"))
        // The reconciler's totals per currency, as numbers.
        #expect(summary.cell(2, "currency")?.value == .string("usd"))
        #expect(summary.cell(2, "destination_platform_fee")?.value == .number(-7.54))
        #expect(summary.cell(1, "gross")?.value == .number(1_234_567))
        #expect(summary.cell(0, "destination_platform_fee")?.format == "#,##0.000;[Red]-#,##0.000")
        #expect(summary.cell(2, "destination_charges")?.value == .number(2))
        // Below them, after a blank row and a note: the check row per currency, formulas over the detail sheets
        // with their cached results.
        #expect(summary.rows[5][0].value.string?.hasPrefix("Check:") == true)
        let usd = summary.rows[8]
        #expect(usd[0].value == .string("usd"))
        let dpf = usd[4]
        #expect(dpf.type == "f")
        #expect(dpf.value == .string("=SUMIF('Platform fees'!$C:$C,\"usd\",'Platform fees'!$N:$N)"))
        #expect(dpf.cached == .number(-7.54))
        #expect(usd[1].value == .string("=COUNTIF('Platform fees'!$C:$C,\"usd\")"))
        #expect(usd[1].cached == .number(2))
        #expect(usd[7].cached == .number(18))
        #expect(usd[9].cached == .number(7.5))
        // stripe_fee is summed by settlement currency: usd holds ch_1's 0.59 and ch_4's (a bhd charge) 0.50.
        #expect(usd[5].value == .string("=SUMIF('Platform fees'!$P:$P,\"usd\",'Platform fees'!$O:$O)"))
        #expect(usd[5].cached == .number(1.09))
        #expect(summary.rows[6][2].cached == .number(10), "bhd gross")
        #expect(summary.charts == 1)
    }

    @Test func runSheetListsParametersCountsTimingsResolvedFindingsAndFileHashes() throws {
        let written = try Self.written()
        let (files, dump) = (written.files, written.dump)
        let run = try #require(dump.sheet("Run"))
        let rows = run.rows.dropFirst().map { row in row.map(\.value) }
        func value(_ section: String, _ item: String) -> JSONValue? {
            rows.first { $0[0] == .string(section) && $0[1] == .string(item) }?[2]
        }
        #expect(value("stripe", "Stripe-Version") == .string("2025-03-31.basil"))
        #expect(value("stripe", "mode") == .string("test"))
        #expect(value("stripe", "API base") == .string("http://127.0.0.1:12111"))
        #expect(value("run", "run id") == .number(7))
        #expect(value("objects", "charge") == .number(3))
        #expect(value("timing (s)", "reconcile") == .number(0.25))
        #expect(value("resolved finding", "skipped_transfer") == .string("ch_0"))
        #expect(value("parameter", "grace period") == .string("3600 s"))
        for file in files.csvFiles {
            #expect(value("file SHA-256", file.name) == .string(file.sha256))
        }
        let everything = run.rows.flatMap { $0 }.compactMap(\.value.string).joined(separator: " ")
        #expect(!everything.contains("sk_test"), "no key in the report")
    }

    @Test(arguments: ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
    func textThatLooksLikeAFormulaIsQuotedTextInTheWorkbookToo(dangerous: String) throws {
        // Given text starting with each dangerous character, next to negative amounts
        let report = ReconciliationReport(exceptions: [
            ExceptionRow(
                kind: .missingObject, objectID: dangerous, relatedID: nil, currency: .usd, expected: .amount(-877),
                actual: .text(dangerous), message: dangerous)
        ])
        // When written and read back
        let dump = try Self.written(report).dump
        let sheet = try #require(dump.sheet("Exceptions"))
        // Then the text is a string with the same leading quote as the CSV, never a formula (a carriage
        // return is stored as OOXML's `_x000D_` escape, which Excel reads back as CR and openpyxl leaves as is)
        for column in ["object_id", "actual", "message"] {
            let cell = try #require(sheet.cell(0, column))
            #expect(cell.type == "s", "\(column)")
            let expected = "'" + dangerous.replacingOccurrences(of: "\r", with: "_x000D_")
            #expect(cell.value.string == expected, "\(column)")
        }
        // And the negative amount is still a number
        #expect(sheet.cell(0, "expected")?.type == "n")
        #expect(sheet.cell(0, "expected")?.value == .number(-8.77))
    }

    @Test func amountsWithUnknownDecimalsAreLabelledTextAndCountedOnTheRunSheet() throws {
        let unknown = try #require(Currency(rawValue: "xyz"))
        let report = ReconciliationReport(ledger: [
            LedgerRow(currency: unknown, reportingCategory: "charge", count: 1, gross: 877, fee: 0, net: 877)
        ])
        let written = try Self.written(report)
        let (files, dump) = (written.files, written.dump)
        #expect(dump.sheet("Ledger")?.cell(0, "gross")?.value == .string("minor units: 877"))
        #expect(files.amountsWithUnknownDecimals == 3)
        let run = try #require(dump.sheet("Run"))
        #expect(
            run.rows.contains { $0[1].value == .string("amounts with unknown decimals") && $0[2].value == .number(3) })
    }

    @Test func aFullSheetContinuesOnNumberedSheetsEachWithItsHeader() throws {
        // Given sheets of at most 4 rows (header included) and a report with 7 ledger rows and 4 platform fees
        var report = Fixture.report()
        report.ledger = (0..<7).map { index in
            LedgerRow(currency: .usd, reportingCategory: "cat\(index)", count: index, gross: 100, fee: 1, net: 99)
        }
        let written = try Self.written(report, options: WriteOptions(maxRowsPerSheet: 4))
        let (files, dump) = (written.files, written.dump)
        // Then each full sheet continues on "<name> (2)", "(3)", with the header, frozen and filtered
        #expect(
            dump.names.prefix(10) == [
                "Platform fees", "Platform fees (2)", "Skipped transfers", "Unreversed disputes", "Exceptions",
                "Ledger", "Ledger (2)", "Ledger (3)", "Summary", "Run",
            ])
        #expect(dump.names.dropFirst(10).allSatisfy { $0.hasPrefix("Run (") }, "the Run sheet continues too")
        #expect(files.sheetNames == dump.names)
        let parts = ["Ledger", "Ledger (2)", "Ledger (3)"].compactMap { dump.sheet($0) }
        #expect(parts.map(\.maxRow) == [4, 4, 2])
        #expect(parts.allSatisfy { $0.header == ["currency", "reporting_category", "count", "gross", "fee", "net"] })
        #expect(parts.allSatisfy { $0.freeze == "A2" })
        #expect(parts.map(\.filter) == ["A1:F4", "A1:F4", "A1:F2"])
        #expect(parts[2].cell(0, "reporting_category")?.value == .string("cat6"))
        // And the summary's checks add up every part
        let dpf = try #require(dump.sheet("Summary")).rows[8][4]
        #expect(dpf.value.string?.contains("'Platform fees (2)'!$N:$N") == true)
        #expect(dpf.cached == .number(-7.54))
        // The CSV is one file regardless
        #expect(try text(try #require(files.csvFile(named: "ledger.csv")).url).split(separator: "\n").count == 8)
    }

    @Test(arguments: [1, 3])
    func platformFeesStreamedInPartsMakeTheSameFilesAsOneWrite(partSize: Int) throws {
        // Given sheets of at most 4 rows, and a report with 4 platform fees (so they continue on a second sheet)
        let report = Fixture.report()
        let options = WriteOptions(maxRowsPerSheet: 4)
        let whole = try Self.written(report, options: options)
        // When the same report is streamed, its platform fees in parts of `partSize` rows
        let scratch = try ScratchFolder()
        let metadata = try Fixture.metadata(resolved: [
            ReportMetadata.ResolvedFinding(kind: "skipped_transfer", objectID: "ch_0", firstSeenRun: 3)
        ])
        let stream = try ReportStream(range: metadata.range, to: scratch.url, options: options)
        for start in stride(from: 0, to: report.platformFees.count, by: partSize) {
            try stream.append(
                platformFees: Array(report.platformFees[start..<min(start + partSize, report.platformFees.count)]))
        }
        var rest = report
        rest.platformFees = []
        let files = try stream.finish(rest, metadata: metadata)
        // Then every CSV file is byte-identical and every sheet has the same cells, formats and cached results
        #expect(files.csvFiles.map(\.sha256) == whole.files.csvFiles.map(\.sha256))
        #expect(files.csvFile(named: "platform_fees.csv")?.rowCount == report.platformFees.count)
        #expect(files.sheetNames == whole.files.sheetNames)
        #expect(try Python.readWorkbook(files.workbook) == whole.dump)
        #expect(stream.timings.csv > 0 && stream.timings.workbookClose > 0)
    }

    @Test func theCIScriptAcceptsTheWorkbookAndRejectsBrokenOnes() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../.ci/check_workbook.py"
        ).standardizedFileURL.path
        try #require(FileManager.default.fileExists(atPath: script), "missing \(script)")
        let written = try Self.written()
        let (files, scratch) = (written.files, written.scratch)

        let good = try Python.run([script, files.workbook.path])
        #expect(good.status == 0, "\(good.error)")

        let missingSheet = try Python.run([script, files.workbook.path, "Platform fees", "Payouts"])
        #expect(missingSheet.status == 1)
        #expect(missingSheet.error.contains("Payouts"))

        let garbage = scratch.url.appendingPathComponent("garbage.xlsx")
        try Data("not a zip".utf8).write(to: garbage)
        let broken = try Python.run([script, garbage.path])
        #expect(broken.status == 2)
        #expect(broken.error.contains("does not open"))

        let unknown = try #require(Currency(rawValue: "xyz"))
        let textAmounts = try Self.written(
            ReconciliationReport(ledger: [
                LedgerRow(currency: unknown, reportingCategory: "charge", count: 1, gross: 877, fee: 0, net: 877)
            ]))
        let notNumeric = try Python.run([script, textAmounts.files.workbook.path])
        #expect(notNumeric.status == 1)
        #expect(notNumeric.error.contains("not a number"))
    }
}
