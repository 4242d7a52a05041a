import Foundation
import ReconCore
import Reports
import Testing

/// Excel's row limit for real, and the streaming throughput. In a debug build on 2 cores the split test takes
/// 19 s alone and 33 s beside other tests, the throughput test about 58 s, so they run only with
/// `REPORTS_LARGE=1` (`REPORTS_LARGE=1 swift test -c release --filter LargeSheetTests`); the split logic itself
/// is covered in the normal suite with a small injected row limit (`WorkbookTests`).
@Suite("Large sheets", .enabled(if: ProcessInfo.processInfo.environment["REPORTS_LARGE"] == "1", "set REPORTS_LARGE=1"))
struct LargeSheetTests {
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test func aSheetPastExcelsRowLimitContinuesOnASecondSheet() throws {
        // Given 1,048,576 ledger rows: with the header that is one row more than Excel allows
        let rowCount = 1_048_576
        let report = ReconciliationReport(
            ledger: (0..<rowCount).map { index in
                LedgerRow(
                    currency: .usd, reportingCategory: "category_\(index)", count: index, gross: Int64(index),
                    fee: -1, net: Int64(index) - 1)
            })
        let scratch = try ScratchFolder()
        // When written
        let files = try ReportWriter.write(report, metadata: try Fixture.metadata(), to: scratch.url)
        // Then "Ledger" is full (header + 1,048,575 rows) and the last row is alone on "Ledger (2)"
        #expect(files.sheetNames.contains("Ledger (2)"))
        #expect(files.sheetNames.filter { $0.hasPrefix("Ledger") } == ["Ledger", "Ledger (2)"])
        try #require(Python.hasOpenpyxl, "\(Python.skipMessage)")
        let script = """
            import json, sys, openpyxl
            book = openpyxl.load_workbook(sys.argv[1], read_only=True)
            second = book["Ledger (2)"]
            rows = list(second.iter_rows(values_only=True))
            print(json.dumps({"names": book.sheetnames, "rows": book["Ledger"].max_row,
                              "second": [[str(v) for v in row] for row in rows]}))
            """
        let result = try Python.run(["-c", script, files.workbook.path])
        #expect(result.status == 0, "\(result.error)")
        let dump = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(dump["rows"] as? Int == 1_048_576)
        let second = try #require(dump["second"] as? [[String]])
        #expect(second.count == 2)
        #expect(second.first == ["Currency", "Reporting category", "Count", "Gross", "Fee", "Net"])
        #expect(second.last?[1] == "category_1048575")
    }

    @Test func streamingThroughputOfAMillionRowSheet() throws {
        // Given a million platform-fee rows (17 columns each)
        let rowCount = 1_000_000
        let template = Fixture.report().platformFees[0]
        let report = ReconciliationReport(
            platformFees: (0..<rowCount).map { index in
                var row = template
                row.chargeID = "ch_\(index)"
                row.created += Int64(index)
                row.amount = Int64(1000 + index % 977)
                return row
            })
        let scratch = try ScratchFolder()
        let started = ContinuousClock.now
        // When streamed in parts of 10,000 rows, as the reconcile does
        let metadata = try Fixture.metadata()
        let stream = try ReportStream(range: metadata.range, to: scratch.url)
        for start in stride(from: 0, to: rowCount, by: 10_000) {
            try stream.append(platformFees: Array(report.platformFees[start..<min(start + 10_000, rowCount)]))
        }
        let files = try stream.finish(ReconciliationReport(), metadata: metadata)
        let total = Self.seconds(ContinuousClock.now - started)
        // Then: the rates, printed for the record
        let timings = stream.timings
        let bytes = (try FileManager.default.attributesOfItem(atPath: files.workbook.path)[.size] as? Int) ?? 0
        print(
            "THROUGHPUT \(rowCount) rows x 17 columns: CSV \(Int(Double(rowCount) / timings.csv)) rows/s; "
                + "XLSX rows \(Int(Double(rowCount) / timings.workbookRows)) rows/s, close (zip) "
                + "\(timings.workbookClose) s, \(bytes / 1_048_576) MiB; total \(total) s")
        #expect(files.csvFile(named: "platform_fees.csv")?.rowCount == rowCount)
        #expect(files.sheetNames.prefix(2) == ["Summary", "Platform fees"])
        #expect(!files.sheetNames.contains("Platform fees (2)"))
    }
}
