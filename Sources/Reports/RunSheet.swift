import Foundation
import ReconCore

/// The workbook's `Run` sheet: how the report was made. Four columns (`section`, `item`, `value`, `detail`)
/// so the finance team can filter by section; values keep their types (times are date-times, counts and
/// seconds are numbers).
enum RunSheet {
    static let sheetName = "Run"

    static func table(
        metadata: ReportMetadata, csvFiles: [ReportFiles.CSVFile], workbookName: String, unknownDecimals: Int
    ) -> ReportTable {
        let rows = rows(
            metadata: metadata, csvFiles: csvFiles, workbookName: workbookName, unknownDecimals: unknownDecimals)
        return ReportTable(
            fileName: "", sheetName: sheetName,
            columns: [
                Column("section", .text), Column("item", .text), Column("value", .mixed), Column("detail", .text),
            ],
            rowCount: rows.count
        ) { index, cells in
            cells.append(contentsOf: rows[index])
        }
    }

    static func rows(
        metadata: ReportMetadata, csvFiles: [ReportFiles.CSVFile], workbookName: String, unknownDecimals: Int
    ) -> [[Cell]] {
        func row(_ section: String, _ item: String, _ value: Cell, _ detail: String = "") -> [Cell] {
            [.text(section), .text(SecretRedaction.redacted(item)), value, .text(SecretRedaction.redacted(detail))]
        }
        func text(_ value: String) -> Cell { .text(SecretRedaction.redacted(value)) }
        let range = metadata.range
        let zone = range.timeZone
        var rows: [[Cell]] = [
            row("run", "run id", .count(Int(metadata.runID))),
            row("run", "command", text(metadata.command)),
            row("run", "started (UTC)", .time(metadata.startedAt)),
            row("run", "finished (UTC)", .time(metadata.finishedAt)),
            row("range", "from (UTC, inclusive)", .time(range.unixSeconds.from), RFC3339.string(range.from, in: zone)),
            row("range", "to (UTC, exclusive)", .time(range.unixSeconds.to), RFC3339.string(range.to, in: zone)),
            row("range", "time zone", text(zone.identifier)),
            row("range", "report folder", text(range.folderName)),
            row("stripe", "Stripe-Version", text(metadata.stripeVersion)),
            row("stripe", "mode", .text(metadata.mode.rawValue), metadata.mode == .live ? "live data" : "test data"),
            row("stripe", "API base", .text(SecretRedaction.url(metadata.apiBase))),
            row("tool", "connect-recon version", text(metadata.toolVersion)),
            row("tool", "libxlsxwriter version", .text(XLSXLibrary.version)),
        ]
        for parameter in metadata.parameters {
            rows.append(row("parameter", parameter.name, text(parameter.value)))
        }
        for (kind, count) in metadata.counts.sorted(by: { $0.key < $1.key }) {
            rows.append(row("objects", kind, .count(count)))
        }
        for (phase, seconds) in metadata.timings.sorted(by: { $0.key < $1.key }) {
            rows.append(row("timing (s)", phase, .seconds(seconds)))
        }
        if metadata.resolvedFindings.isEmpty {
            rows.append(
                row(
                    "resolved finding", "none", .empty,
                    "no finding of an earlier run about an object this run judged is gone"))
        }
        for finding in metadata.resolvedFindings {
            rows.append(
                row(
                    "resolved finding", finding.key.kind, text(finding.key.objectID),
                    "first seen in run \(finding.firstRun)"))
        }
        for stale in metadata.outOfDateRanges {
            rows.append(
                row(
                    "out of date", stale.folderName, text(stale.rerunAdvice),
                    "an outcome of an object of this range arrived since its report was written"))
        }
        for unmatched in metadata.unmatchedDebitLinks {
            rows.append(
                row(
                    "account debit", unmatched.debitID, text(unmatched.link),
                    "names nothing the history holds (no charge, PaymentIntent, refund, dispute or transfer group): "
                        + "it recovers nothing; check its metadata, or extract the range of what it names"))
        }
        for file in csvFiles {
            rows.append(
                row("file SHA-256", file.name, .text(file.sha256), "\(file.rowCount) rows, \(file.byteCount) bytes"))
        }
        rows.append(row("file", workbookName, .text("this workbook")))
        rows.append(
            row(
                "check", "amounts with unknown decimals", .count(unknownDecimals),
                unknownDecimals == 0
                    ? "every amount is in major units"
                    : "written as text 'minor units: N': the currency is not in Stripe's table of decimals"))
        return rows
    }
}
