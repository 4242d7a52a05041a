import CDeflateLevel
import Foundation
import ReconCore
import Reports
import TestSupport
import Testing

/// The workbook read back by a real reader: openpyxl, driven by a small python3 script.
/// Skipped on a developer's machine without openpyxl; in CI (`CI` set) it always runs, so a CI without openpyxl
/// fails instead of skipping.
@Suite(
    "XLSX workbook",
    .enabled(if: Python.hasOpenpyxl || ProcessInfo.processInfo.environment["CI"] != nil, "\(Python.skipMessage)"))
struct WorkbookTests {
    static let sheetNames = [
        "Summary", "Balance", "Platform fees", "Transfer groups", "Payouts", "Payout transactions",
        "Skipped transfers", "Unreversed disputes", "Exceptions", "Connected accounts", "Stripe costs", "Ledger", "Run",
    ]

    /// Each CSV file's sheet, but `balance.csv`'s: its sheet is laid out as a balance report, one column per balance
    /// (``balanceSheetReadsAsABalanceReport()``).
    static let sheetOfFile = [
        "summary.csv": "Summary", "platform_fees.csv": "Platform fees", "transfer_groups.csv": "Transfer groups",
        "skipped_transfers.csv": "Skipped transfers",
        "unreversed_disputes.csv": "Unreversed disputes", "exceptions.csv": "Exceptions",
        "connected_accounts.csv": "Connected accounts", "stripe_costs.csv": "Stripe costs", "payouts.csv": "Payouts",
        "payout_transactions.csv": "Payout transactions", "ledger.csv": "Ledger",
    ]

    /// A written report, read back; holding it keeps its scratch folder alive.
    struct Written {
        var files: ReportFiles
        var dump: WorkbookDump
        var scratch: TemporaryFolder
    }

    /// The metadata of every written report here: one finding of an earlier run resolved.
    static func metadata() throws -> ReportMetadata {
        var metadata = try Fixture.metadata(resolved: [
            ResolvedFinding(key: FindingKey(kind: "skipped_transfer", objectID: "ch_0"), firstRun: 3, lastRun: 3)
        ])
        metadata.unmatchedDebitLinks = [UnmatchedDebitLink(debitID: "py_1", link: "ch_gone")]
        return metadata
    }

    static func written(
        _ report: ReconciliationReport = Fixture.report(), options: WriteOptions = WriteOptions()
    ) throws -> Written {
        let scratch = try TemporaryFolder()
        let metadata = try Self.metadata()
        let files = try ReportWriter.write(report, metadata: metadata, to: scratch.url, options: options)
        return Written(files: files, dump: try Python.readWorkbook(files.workbook), scratch: scratch)
    }

    @Test func opensOnTheSummaryThenOneSheetPerCSVThenRunWithReadableLabelsOfTheCSVColumns() throws {
        let written = try Self.written()
        let (files, dump) = (written.files, written.dump)
        #expect(dump.names == Self.sheetNames)
        #expect(files.sheetNames == Self.sheetNames)
        #expect(dump.active == "Summary")
        #expect(files.csvFiles.count == Self.sheetOfFile.count + 1)
        for file in files.csvFiles where file.name != "balance.csv" {
            let sheetName = try #require(Self.sheetOfFile[file.name], "\(file.name) has no sheet")
            let csvHeader = try text(file.url).prefix { $0 != "\n" }.split(separator: ",").map(String.init)
            #expect(try #require(dump.sheet(sheetName)).header == csvHeader.map(label), "\(sheetName)")
        }
        #expect(
            try #require(dump.sheet("Platform fees")).header.prefix(3) == ["Charge ID", "Created (UTC)", "Currency"])
        #expect(try #require(dump.sheet("Run")).header == ["Section", "Item", "Value", "Detail"])
    }

    @Test func balanceSheetReadsAsABalanceReport() throws {
        // Given the fixture's balances (bhd without a snapshot, jpy not continuous, usd issuing and payments closing)
        let dump = try Self.written().dump
        let sheet = try #require(dump.sheet("Balance"))
        // Then one column per currency and balance type, the lines down, as finance reads a balance report
        #expect(sheet.header == ["Line", "BHD payments", "JPY payments", "USD issuing", "USD payments"])
        let labels = sheet.rows.dropFirst().map { $0.first?.value.string ?? "" }
        #expect(labels.first == "Starting balance")
        #expect(labels.last == "The books close")
        let order = ["Starting balance", "Activity", "Payouts", "Ending balance", "Stripe's balance (GET /v1/balance)"]
        #expect(
            order.compactMap { labels.firstIndex(of: $0) } == order.compactMap { labels.firstIndex(of: $0) }.sorted())
        #expect(order.allSatisfy(labels.contains))
        #expect(labels.contains("   platform_earning") && labels.contains("   refund"))
        func row(_ label: String) throws -> [JSONValue] {
            try #require(sheet.rows.first { $0.first?.value.string == label }).map(\.value)
        }
        // And amounts are numbers in each balance's currency; the books' verdict is the last line
        #expect(try row("Ending balance")[4] == .number(120))
        #expect(try row("Starting balance")[2] == .number(1_000))
        #expect(try row("Starting balance")[1] == .null, "bhd: no ending balance, so no starting one")
        #expect(try row("The books close")[4] == .string("yes"))
        #expect(try row("The books close")[2].string?.hasPrefix("no: the payments balance is not continuous") == true)
        #expect(try row("Stripe's Balance report")[2] == .string("not_yet_published"))
        #expect(sheet.freeze == "A2")
    }

    @Test func everySheetPrintsLandscapeOnePageWideWithItsHeaderRowOnEachPage() throws {
        let dump = try Self.written().dump
        for sheet in dump.sheets {
            #expect(sheet.print.orientation == "landscape", "\(sheet.name)")
            #expect(sheet.print.fitToPage, "\(sheet.name)")
            #expect(sheet.print.fitToWidth == 1 && sheet.print.fitToHeight == 0, "\(sheet.name)")
            #expect(sheet.print.titleRows == "$1:$1", "\(sheet.name)")
        }
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
            if sheet.name == "Summary" { continue }
        }
        #expect(dump.sheet("Platform fees")?.filter == "A1:R5")
        #expect(dump.sheet("Ledger")?.filter == "A1:G4")
    }

    @Test(
        "amounts are numbers in major units with the currency's decimals",
        arguments: [
            (0, "amount", 10.0, "#,##0.00;[Red]-#,##0.00"),
            (1, "destination_platform_fee", -8.77, "#,##0.00;[Red]-#,##0.00"),
            (2, "amount", 1_234_567.0, "#,##0;[Red]-#,##0"),
            (2, "application_fee_amount", 877.0, "#,##0;[Red]-#,##0"),
            // A JPY fee on a USD charge shows no decimals: the fee's amounts are in its own currency.
            (0, "application_fee_amount", 185.0, "#,##0;[Red]-#,##0"),
            (0, "destination_platform_fee", 1.23, "#,##0.00;[Red]-#,##0.00"),
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

    @Test func summaryHasTheTotalsThenTheFindingsThenTheirChecksAndChartsPerCurrency() throws {
        let dump = try Self.written().dump
        let summary = try #require(dump.sheet("Summary"))
        // The reconciler's totals per currency, as numbers, under readable labels
        #expect(
            summary.header.prefix(5) == [
                "Currency", "Destination charges", "Gross", "Refunded", "Destination platform fee",
            ])
        #expect(summary.cell(2, "currency")?.value == .string("usd"))
        #expect(summary.cell(2, "destination_platform_fee")?.value == .number(-7.54))
        #expect(summary.cell(1, "gross")?.value == .number(1_234_567))
        #expect(summary.cell(0, "destination_platform_fee")?.format == "#,##0.000;[Red]-#,##0.000")
        #expect(summary.cell(2, "destination_charges")?.value == .number(2))
        #expect(summary.filter == "A1:Q4")
        // The look-back window's pending charges: usd 1 pending of 12.34, jpy 2 of 1,500
        #expect(Array(summary.header.suffix(7).prefix(2)) == ["Pending charges", "Pending amount"])
        #expect(summary.cell(2, "pending_charges")?.value == .number(1))
        #expect(summary.cell(2, "pending_amount")?.value == .number(12.34))
        #expect(summary.cell(1, "pending_amount")?.value == .number(1_500))
        // The transfer groups and their take: usd 1 group that kept 25.00
        #expect(Array(summary.header.suffix(5).prefix(2)) == ["Transfer groups", "Platform take"])
        #expect(summary.cell(2, "transfer_groups")?.value == .number(1))
        #expect(summary.cell(2, "platform_take")?.value == .number(25))
        // The platform's other money, the last columns: Stripe's costs usd 18.22, jpy 300; account debits usd 5.00;
        // losses covered usd 20.00
        #expect(Array(summary.header.suffix(3)) == ["Stripe costs", "Account debits", "Losses covered"])
        #expect(summary.cell(2, "account_debits")?.value == .number(5))
        #expect(summary.cell(2, "losses_covered")?.value == .number(20))
        #expect(summary.cell(2, "stripe_costs")?.value == .number(18.22))
        #expect(summary.cell(1, "stripe_costs")?.value == .number(300))
        // Then, after a blank row, whether the books close, one line per currency of the Balance sheet
        #expect(summary.rows[5][0].value == .string("The books close (see the Balance sheet)"))
        #expect(summary.rows[6][0].value.string?.hasPrefix("BHD: the books do not close: no read of Stripe's") == true)
        #expect(summary.rows[7][0].value.string?.contains("JPY: the books do not close") == true)
        #expect(summary.rows[7][0].value.string?.contains("off by 5 jpy") == true)
        #expect(summary.rows[8][0].value == .string("USD: the books close (Stripe's Balance report agrees)."))
        // Then, after a blank row, the findings by kind: new, open, resolved
        #expect(summary.rows[10].map(\.value.string).prefix(6) == ["Findings", nil, nil, "New", "Open", "Resolved"])
        #expect(summary.rows[12][0].value == .string("skipped_transfer"))
        #expect(summary.rows[12][3...5].map(\.value) == [.number(1), .number(0), .number(1)])
        #expect(summary.rows[14][0].value == .string("unreversed_dispute"))
        #expect(summary.rows[14][4].value == .number(1))
        // Then a note and the check row per currency: formulas over the detail sheets with their cached results
        #expect(summary.rows[16][0].value.string?.hasPrefix("Check:") == true)
        let usd = summary.rows[19]
        #expect(usd[0].value == .string("usd"))
        let dpf = usd[4]
        #expect(dpf.type == "f")
        #expect(dpf.value == .string("=SUMIF('Platform fees'!$C:$C,\"usd\",'Platform fees'!$O:$O)"))
        #expect(dpf.cached == .number(-7.54))
        #expect(usd[1].value == .string("=COUNTIF('Platform fees'!$C:$C,\"usd\")"))
        #expect(usd[1].cached == .number(2))
        #expect(usd[7].cached == .number(18))
        #expect(usd[9].cached == .number(7.5))
        // stripe_fee is summed by settlement currency: usd holds ch_1's 0.59 and ch_4's (a bhd charge) 0.50.
        #expect(usd[5].value == .string("=SUMIF('Platform fees'!$Q:$Q,\"usd\",'Platform fees'!$P:$P)"))
        #expect(usd[5].cached == .number(1.09))
        #expect(summary.rows[17][2].cached == .number(10), "bhd gross")
        // The transfer groups are counted and their take summed from their sheet (a group without a currency in
        // no row)
        #expect(usd[12].value == .string("=COUNTIF('Transfer groups'!$C:$C,\"usd\")"))
        #expect(usd[12].cached == .number(1))
        #expect(usd[13].value == .string("=SUMIF('Transfer groups'!$C:$C,\"usd\",'Transfer groups'!$J:$J)"))
        #expect(usd[13].cached == .number(25))
        // Then the same totals from the connected accounts' statements (no Stripe fee: it is not the account's)
        #expect(summary.rows[21][0].value.string?.contains("Connected accounts") == true)
        let accounts = summary.rows[24]
        #expect(accounts[0].value == .string("usd"))
        #expect(accounts[4].value == .string("=SUMIF('Connected accounts'!$B:$B,\"usd\",'Connected accounts'!$I:$I)"))
        #expect(accounts[4].cached == .number(-7.54))
        #expect(accounts[1].cached == .number(2))
        #expect(accounts[7].cached == .number(18))
        #expect(accounts[9].cached == .number(7.5))
        #expect(accounts[5].value == .null)
        // And one chart per currency (never two currencies on one axis) plus the findings by kind, charting the
        // per-day table at the bottom
        #expect(summary.charts == 4)
        let day = try #require(summary.rows.firstIndex { $0.first?.value == .string("Day") })
        #expect(
            summary.rows[day].prefix(4).map(\.value) == [
                .string("Day"), .string("bhd"), .string("jpy"), .string("usd"),
            ])
        #expect(
            summary.rows[day + 1].prefix(4).map(\.value) == [
                .string("2026-11-20"), .number(8.77), .number(877), .number(-7.54),
            ])
    }

    @Test func connectedAccountsHaveOneStatementPerAccountAndCurrency() throws {
        let dump = try Self.written().dump
        let sheet = try #require(dump.sheet("Connected accounts"))
        #expect(sheet.maxRow == 6)
        #expect(sheet.cell(0, "destination_account")?.value == .string("acct_1"))
        #expect(sheet.cell(0, "application_fees")?.value == .number(1.23))
        #expect(sheet.cell(0, "unrecovered")?.value == .number(7.5))
        #expect(sheet.cell(2, "transferred")?.value == .number(1_234_567))
        #expect(sheet.cell(2, "transferred")?.format == "#,##0;[Red]-#,##0")
        #expect(sheet.cell(4, "destination_account")?.value == .null, "an unknown account")
        #expect(sheet.cell(4, "destination_platform_fee")?.value == .number(8.77))
    }

    @Test func payoutSheetsHaveNumbersInEachPayoutsCurrencyAndFormulaSafeText() throws {
        let dump = try Self.written().dump
        let payouts = try #require(dump.sheet("Payouts"))
        #expect(
            payouts.header == [
                "Payout ID", "Created (UTC)", "Arrival date", "Currency", "Amount", "Status", "Reconciliation status",
                "Balance transactions", "Net of transactions", "Difference", "Type",
            ])
        #expect(payouts.maxRow == 6)
        // A manual payout is typed so, with no figures
        #expect(payouts.cell(4, "type")?.value == .string("manual"))
        #expect(payouts.cell(4, "balance_transactions")?.value == .null)
        // A payout still being reconciled shows its status and leaves its figures empty
        #expect(payouts.cell(3, "reconciliation_status")?.value == .string("in_progress"))
        #expect(payouts.cell(3, "net_of_transactions")?.value == .null)
        #expect(payouts.cell(3, "difference")?.value == .null)
        #expect(payouts.cell(0, "amount")?.value == .number(10))
        #expect(payouts.cell(0, "amount")?.format == "#,##0.00;[Red]-#,##0.00")
        #expect(payouts.cell(1, "net_of_transactions")?.format == "#,##0;[Red]-#,##0")
        #expect(payouts.cell(2, "difference")?.value == .number(0.01))
        #expect(payouts.cell(2, "difference")?.format == "#,##0.000;[Red]-#,##0.000")
        #expect(payouts.cell(2, "balance_transactions")?.value == .number(1))
        #expect(payouts.cell(0, "arrival_date")?.type == "d")
        #expect(payouts.cell(0, "arrival_date")?.value == .string("2026-11-22T00:00:00"))
        let transactions = try #require(dump.sheet("Payout transactions"))
        #expect(transactions.maxRow == 5)
        #expect(transactions.cell(0, "net")?.value == .number(9.41))
        #expect(transactions.cell(1, "available_on")?.value == .null)
        #expect(transactions.cell(2, "fee")?.value == .number(23))
        #expect(transactions.cell(3, "reporting_category")?.value == .string("'-adjustment"))
        #expect(transactions.cell(3, "source_id")?.value == .string("'=cmd"))
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
        // An account debit naming nothing the history holds is said, with what it names
        #expect(value("account debit", "py_1") == .string("ch_gone"))
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
        // Given sheets of at most 4 rows (header included) and a report with 7 ledger rows, 4 platform fees, 5
        // connected accounts, 4 payouts and 4 payout transactions
        var report = Fixture.report()
        report.ledger = (0..<7).map { index in
            LedgerRow(
                currency: .usd, reportingCategory: ReportingCategory(rawValue: "cat\(index)"), count: index, gross: 100,
                fee: 1, net: 99)
        }
        let written = try Self.written(report, options: WriteOptions(maxRowsPerSheet: 4))
        let (files, dump) = (written.files, written.dump)
        // Then each full sheet continues on "<name> (2)", "(3)", with the header, frozen and filtered, right after
        // it; but the Payouts, added before their streamed transactions and written at the end, continue after
        // those (a range of more than a sheet's rows of payouts, which no platform reaches)
        #expect(
            dump.names.prefix(20) == [
                "Summary", "Balance", "Platform fees", "Platform fees (2)", "Transfer groups", "Payouts",
                "Payout transactions", "Payout transactions (2)", "Payouts (2)", "Skipped transfers",
                "Unreversed disputes", "Exceptions", "Connected accounts", "Connected accounts (2)", "Stripe costs",
                "Stripe costs (2)", "Ledger", "Ledger (2)", "Ledger (3)", "Run",
            ])
        #expect(dump.names.dropFirst(20).allSatisfy { $0.hasPrefix("Run (") }, "the Run sheet continues too")
        #expect(dump.active == "Summary")
        #expect(files.sheetNames == dump.names)
        let parts = ["Ledger", "Ledger (2)", "Ledger (3)"].compactMap { dump.sheet($0) }
        #expect(parts.map(\.maxRow) == [4, 4, 2])
        #expect(
            parts.allSatisfy {
                $0.header == ["Currency", "Balance type", "Reporting category", "Count", "Gross", "Fee", "Net"]
            })
        #expect(parts.allSatisfy { $0.freeze == "A2" })
        #expect(parts.map(\.filter) == ["A1:G4", "A1:G4", "A1:G2"])
        #expect(parts[2].cell(0, "reporting_category")?.value == .string("cat6"))
        // And the summary's checks add up every part, of the detail sheets and of the connected accounts
        let summary = try #require(dump.sheet("Summary"))
        let dpf = summary.rows[19][4]
        #expect(
            dpf.value
                == .string(
                    "=SUMIF('Platform fees'!$C:$C,\"usd\",'Platform fees'!$O:$O)"
                        + "+SUMIF('Platform fees (2)'!$C:$C,\"usd\",'Platform fees (2)'!$O:$O)"))
        #expect(dpf.cached == .number(-7.54))
        let accountsDPF = summary.rows[24][4]
        #expect(accountsDPF.value.string?.contains("+SUMIF('Connected accounts (2)'!$B:$B,\"usd\"") == true)
        #expect(accountsDPF.cached == .number(-7.54))
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
        let scratch = try TemporaryFolder()
        let metadata = try Self.metadata()
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

    @Test(arguments: [1, 2])
    func payoutTransactionsStreamedInBatchesMakeTheSameFilesAsOneWrite(batchSize: Int) throws {
        // Given sheets of at most 2 rows, and a report whose platform fees and payout transactions continue on
        // second sheets
        let report = Fixture.report()
        #expect(report.payoutTransactions.count >= 2 && report.platformFees.count >= 2)
        let options = WriteOptions(maxRowsPerSheet: 2)
        let whole = try Self.written(report, options: options)
        // When the same report is streamed: its platform fees, then its payout transactions, batch by batch
        let scratch = try TemporaryFolder()
        let metadata = try Self.metadata()
        let stream = try ReportStream(range: metadata.range, to: scratch.url, options: options)
        for batch in Self.batches(report.platformFees, of: batchSize) { try stream.append(platformFees: batch) }
        for batch in Self.batches(report.payoutTransactions, of: batchSize) {
            try stream.append(payoutTransactions: batch)
        }
        var rest = report
        rest.platformFees = []
        rest.payoutTransactions = []
        let files = try stream.finish(rest, metadata: metadata)
        // Then every CSV file is byte-identical and every sheet has the same cells, formats and cached results
        #expect(files.csvFiles.map(\.name) == whole.files.csvFiles.map(\.name))
        #expect(files.csvFiles.map(\.sha256) == whole.files.csvFiles.map(\.sha256))
        #expect(files.csvFile(named: "payout_transactions.csv")?.rowCount == report.payoutTransactions.count)
        #expect(files.sheetNames == whole.files.sheetNames)
        #expect(try Python.readWorkbook(files.workbook) == whole.dump)
        // And the streamed tables come first, each followed by its continuation, the Payouts before their
        // transactions, after the Transfer groups beside the platform fees
        #expect(files.sheetNames.prefix(2) == ["Summary", "Balance"])
        let feeSheets = files.sheetNames.dropFirst(2).prefix { $0.hasPrefix("Platform fees") }
        #expect(feeSheets.count >= 2)
        #expect(
            Array(files.sheetNames.dropFirst(2 + feeSheets.count).prefix(4)) == [
                "Transfer groups", "Payouts", "Payout transactions", "Payout transactions (2)",
            ])
    }

    @Test func aStreamDroppedDuringThePayoutTransactionsLeavesThePreviousReport() throws {
        // Given a previous report of the range
        let first = try Self.written()
        let before = try TemporaryFolder.snapshot(first.files.folder)
        let metadata = try Fixture.metadata()
        let report = Fixture.report()
        // When the next one streams its platform fees and some payout transactions, then stops (the history
        // could not be read, and the pipeline abandons the report)
        let stream = try ReportStream(range: metadata.range, to: first.scratch.url)
        try stream.append(platformFees: report.platformFees)
        try stream.append(payoutTransactions: Array(report.payoutTransactions.prefix(1)))
        stream.abandon()
        // Then the previous report is untouched and nothing else is left
        #expect(try TemporaryFolder.snapshot(first.files.folder) == before)
        #expect(try first.scratch.entries() == [first.files.folder.lastPathComponent])
    }

    private static func batches<Row>(_ rows: [Row], of size: Int) -> [[Row]] {
        stride(from: 0, to: rows.count, by: size).map { Array(rows[$0..<min($0 + size, rows.count)]) }
    }

    @Test(
        "the workbook is zipped at level 1, not libxlsxwriter's default 6: by igzip in pieces on every core, by zlib on one, and reads back the same"
    )
    func theWorkbookIsZippedAtLevelOneInPieces() throws {
        // Given a report whose platform fees fill a sheet of several pieces, large enough for the levels to differ
        var report = Fixture.report()
        let template = try #require(report.platformFees.first)
        report.platformFees = (0..<6_000).map { index in
            var row = template
            row.chargeID = "ch_\(100_000 + index)"
            row.created = template.created + Int64(index)
            return row
        }
        // When it is written
        let written = try Self.written(report)
        // Then its largest sheet holds, to the byte, what the zip's model makes of it (raw deflate, as minizip writes
        // it). On several threads: igzip's level 1 in pieces, each primed with the 32 KiB before it and ended by a
        // sync flush, the last by the stream's end (``IgzipPiecesModel``); neither zlib's level 1 in the same pieces
        // nor level 6. On one core: zlib's level 1 in one stream. Python reads the sheet (checking its CRC-32) and
        // the bytes stored for it.
        let script = """
            import sys, zipfile, zlib
            path, piece, threads, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
            z = zipfile.ZipFile(path)
            info = max((i for i in z.infolist() if i.compress_type == zipfile.ZIP_DEFLATED), key=lambda i: i.file_size)
            data = z.read(info)
            with open(path, 'rb') as f:
                f.seek(info.header_offset)
                header = f.read(30)
                f.seek(info.header_offset + 30 + int.from_bytes(header[26:28], 'little')
                       + int.from_bytes(header[28:30], 'little'))
                stored = f.read(info.compress_size)
            open(out + '.data', 'wb').write(data)
            open(out + '.stored', 'wb').write(stored)
            def stream(level, chunk, dictionary, last):
                options = {'zdict': dictionary} if dictionary else {}
                c = zlib.compressobj(level, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, **options)
                return c.compress(chunk) + c.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)
            chunks = [data[i:i + piece] for i in range(0, len(data), piece)] or [b'']
            zlib_pieces = b''.join(stream(1, chunk, chunks[n - 1][-32768:] if n else b'', n == len(chunks) - 1)
                                   for n, chunk in enumerate(chunks))
            one_stream = stream(1, data, b'', True)
            print(len(chunks), int(stored == zlib_pieces), int(stored == one_stream), len(stream(6, data, b'', True)))
            """
        let threads = deflate_level_threads()
        let out = written.scratch.url.appendingPathComponent("largest-sheet").path
        let result = try Python.run([
            "-c", script, written.files.workbook.path, "\(DEFLATE_LEVEL_PIECE_BYTES)", "\(threads)", out,
        ])
        let figures = result.output.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try #require(figures.count == 4, "\(result.error)")
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + ".data")))
        let stored = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + ".stored")))
        #expect(figures[0] >= 3, "the sheet spans \(figures[0]) pieces: the test needs several")
        #expect(figures[3] != stored.count, "level 6 gives \(figures[3]) bytes, not the \(stored.count) stored")
        if threads > 1 {
            #expect(String(cString: deflate_level_compressor()) == "igzip")
            let model = try #require(IgzipPiecesModel.compressed(data, piece: Int(DEFLATE_LEVEL_PIECE_BYTES)))
            #expect(figures[1] == 0, "zlib's level 1 in pieces is not what is stored")
            let same = stored == model  // a Bool: on a failure, `#expect` would diff the half-megabyte arrays
            #expect(same, "compressed \(stored.count) bytes on \(threads) threads; the model gives \(model.count)")
        } else {
            #expect(String(cString: deflate_level_compressor()) == "zlib")
            #expect(figures[2] == 1, "compressed \(stored.count) bytes on one thread, not zlib's level 1 in one stream")
        }
        // And it reads back whole, header and every row
        #expect(written.dump.sheet("Platform fees")?.maxRow == 6_001)
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

        let missingSheet = try Python.run([script, files.workbook.path, "Platform fees", "Top-ups"])
        #expect(missingSheet.status == 1)
        #expect(missingSheet.error.contains("Top-ups"))

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
