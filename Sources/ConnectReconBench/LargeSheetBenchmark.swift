import Foundation
import ReconCore
import Reports
import TestSupport

/// Scenario `large-sheet`: Excel's row limit for real. 1,048,576 ledger rows are, with the header, one row more
/// than a sheet holds, so the writer fills "Ledger" and continues on "Ledger (2)"; openpyxl (a real reader)
/// reads both back. The split logic itself is tested with a small injected row limit in `WorkbookTests`; this
/// checks it at the real limit, which takes too long for the test suite. A check that fails makes the benchmark
/// exit 1.
struct LargeSheetBenchmark {
    var folder: URL

    /// Rows a worksheet holds, the header included.
    static let excelRowLimit = 1_048_576

    func run(log: (String) -> Void) throws -> [Figure] {
        let rowCount = Self.excelRowLimit
        let report = ReconciliationReport(
            ledger: (0..<rowCount).map { index in
                LedgerRow(
                    currency: .usd, reportingCategory: ReportingCategory(rawValue: "category_\(index)"), count: index,
                    gross: Int64(index), fee: -1,
                    net: Int64(index) - 1)
            })
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let watch = Stopwatch()
        let files = try ReportWriter.write(report, metadata: try BenchReport.metadata(), to: folder)
        let seconds = watch.seconds
        let ledgerSheets = files.sheetNames.filter { $0.hasPrefix("Ledger") }
        var figures = [
            Figure("ledger rows written", Format.count(rowCount)),
            Figure("all reports written (CSV and workbook)", Format.seconds(seconds)),
            Figure.check(
                "the ledger continues on a second sheet", passed: ledgerSheets == ["Ledger", "Ledger (2)"],
                detail: ledgerSheets.joined(separator: ", ")),
        ]
        log("large-sheet: reading \(files.workbook.lastPathComponent) back with openpyxl")
        figures += try readBack(files.workbook)
        try? FileManager.default.removeItem(at: folder)
        return figures
    }

    /// What openpyxl reads: "Ledger" full to the limit, "Ledger (2)" with the header and the last row.
    private func readBack(_ workbook: URL) throws -> [Figure] {
        let script = """
            import json, sys, openpyxl
            book = openpyxl.load_workbook(sys.argv[1], read_only=True)
            rows = list(book["Ledger (2)"].iter_rows(values_only=True))
            print(json.dumps({"rows": book["Ledger"].max_row, "second": [[str(v) for v in row] for row in rows]}))
            """
        let output: String
        do {
            output = try Python.run(["-c", script, workbook.path])
        } catch {
            return [Figure.check("openpyxl reads the workbook", passed: false, detail: "\(error)")]
        }
        let dump = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] ?? [:]
        let firstRows = dump["rows"] as? Int ?? 0
        let second = dump["second"] as? [[String]] ?? []
        let header = ["Currency", "Balance type", "Reporting category", "Count", "Gross", "Fee", "Net"]
        return [
            Figure.check(
                "\"Ledger\" is full (header and 1,048,575 rows)", passed: firstRows == Self.excelRowLimit,
                detail: "\(Format.count(firstRows)) rows"),
            Figure.check(
                "\"Ledger (2)\" holds the header and the last row",
                passed: second.count == 2 && second.first == header
                    && second.last?.contains("category_1048575") == true,
                detail: second.map { $0.prefix(3).joined(separator: " ") }.joined(separator: " / ")),
        ]
    }
}

/// Runs python3 from `PATH` (openpyxl reads workbooks back).
enum Python {
    /// Runs python3 with `arguments` and returns its standard output; throws with its standard error when it
    /// fails or cannot start.
    static func run(_ arguments: [String]) throws -> String {
        guard let python = ExternalProgram.find("python3") else {
            throw BenchError("python3 is not on PATH (the check reads the workbook back with openpyxl)")
        }
        let result = try ExternalProgram.run(python, arguments)
        guard result.status == 0 else {
            throw BenchError(
                "python3 exited with \(result.status) (it needs openpyxl: pip install openpyxl): "
                    + result.error.trimmingCharacters(in: .whitespacesAndNewlines).suffix(500))
        }
        return result.output
    }
}

/// The metadata of the benchmark's reports: an offline test-mode run over 2026-11-01 … 12-01 UTC.
enum BenchReport {
    static func metadata() throws -> ReportMetadata {
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: 1_793_491_200), to: Date(timeIntervalSince1970: 1_796_083_200),
            timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        return ReportMetadata(
            range: range, runID: 1, startedAt: 0, finishedAt: 0, command: "bench", toolVersion: "bench",
            stripeVersion: ExtractionBenchmark.stripeVersion, mode: .test, apiBase: "offline")
    }
}
