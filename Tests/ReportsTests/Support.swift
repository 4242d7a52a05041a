import Foundation
import ReconCore
import Reports
import TestSupport
import Testing

// MARK: - Fixtures

enum Fixture {
    /// 2026-11-20T00:00:00Z … 2026-11-21T00:00:00Z.
    static let from: Int64 = 1_795_132_800
    static let to: Int64 = 1_795_219_200
    /// 2026-11-20T13:45:07Z.
    static let created: Int64 = 1_795_182_307

    static let utc = TimeZone(identifier: "UTC")!

    static func range() throws -> ReportingRange {
        try ReportingRange(
            from: Date(timeIntervalSince1970: TimeInterval(from)), to: Date(timeIntervalSince1970: TimeInterval(to)),
            timeZone: utc)
    }

    static func metadata(resolved: [ResolvedFinding] = []) throws -> ReportMetadata {
        ReportMetadata(
            range: try range(), runID: 7, startedAt: created, finishedAt: created + 42, command: "run",
            toolVersion: "0.1.0-test", stripeVersion: "2025-03-31.basil", mode: .test,
            apiBase: "http://user:sk_test_secret123@127.0.0.1:12111", counts: ["charge": 3, "transfer": 2],
            timings: ["extract": 1.5, "reconcile": 0.25], resolvedFindings: resolved,
            parameters: [ReportMetadata.Parameter("grace period", "3600 s")])
    }

    /// The seed's worked numbers: a 10.00 USD application-fee charge (DPF 1.23), an 8.77 transfer-amount
    /// charge fully refunded without reversing the transfer (DPF −8.77), a jpy and a bhd charge.
    static func report() -> ReconciliationReport {
        var report = ReconciliationReport(
            platformFees: [
                PlatformFeeRow(
                    chargeID: "ch_1", created: created, currency: .usd, amount: 1000, amountRefunded: 0,
                    destinationAccount: "acct_1", feeStyle: .applicationFee, transferID: "tr_1",
                    transferAmount: 1000, transferReversed: 0, applicationFeeID: "fee_1",
                    // A cross-border fee: 1.23 usd asked, settled as 185 jpy in the account's currency.
                    applicationFeeCurrency: .jpy, applicationFeeAmount: 185, applicationFeeRefunded: 0,
                    applicationFeeKept: 123, destinationPlatformFee: 123, stripeFee: 59, settlementCurrency: .usd,
                    platformNet: nil),
                PlatformFeeRow(
                    chargeID: "ch_2", created: created + 1, currency: .usd, amount: 1000, amountRefunded: 1000,
                    destinationAccount: "acct_2", feeStyle: .transferAmount, transferID: "tr_2",
                    transferAmount: 877, transferReversed: 0, applicationFeeID: nil, applicationFeeAmount: nil,
                    applicationFeeRefunded: nil, destinationPlatformFee: -877, stripeFee: nil,
                    settlementCurrency: nil, platformNet: nil),
                PlatformFeeRow(
                    chargeID: "ch_3", created: created + 2, currency: .jpy, amount: 1_234_567, amountRefunded: 0,
                    destinationAccount: "acct_3", feeStyle: .applicationFee, transferID: "tr_3",
                    transferAmount: 1_234_567, transferReversed: 0, applicationFeeID: "fee_3",
                    applicationFeeCurrency: .jpy, applicationFeeAmount: 877, applicationFeeRefunded: 0,
                    applicationFeeKept: 877, destinationPlatformFee: 877, stripeFee: 4321,
                    settlementCurrency: .jpy, platformNet: 877),
                PlatformFeeRow(
                    chargeID: "ch_4", created: created + 3, currency: .bhd, amount: 10000, amountRefunded: 0,
                    destinationAccount: nil, feeStyle: .fullTransfer, transferID: "tr_4", transferAmount: 10000,
                    transferReversed: 0, applicationFeeID: nil, applicationFeeAmount: nil,
                    applicationFeeRefunded: nil, destinationPlatformFee: 8770, stripeFee: 50, settlementCurrency: .usd,
                    platformNet: -5),
            ],
            transferGroups: [
                // An order paying two sellers 60.00 and 25.00, 10.00 reversed: the platform kept 25.00.
                TransferGroupRow(
                    transferGroup: "order_1234", created: created, currency: .usd, charges: 1, charged: 10000,
                    refunded: 0, transfers: 2, transferred: 8500, reversed: 1000, platformTake: 2500, stripeFee: 320,
                    settlementCurrency: .usd, platformNet: 2180),
                // A eur charge paying a jpy seller, settled in two currencies: no take.
                TransferGroupRow(
                    transferGroup: "ch_8", created: created + 5, currency: nil, charges: 1, charged: nil, refunded: nil,
                    transfers: 1, transferred: nil, reversed: nil, platformTake: nil, stripeFee: 30,
                    settlementCurrency: .eur, platformNet: nil),
            ],
            skippedTransfers: [
                SkippedTransferRow(
                    chargeID: "ch_5", created: created, currency: .usd, amount: 2000, intendedDestination: "acct_9",
                    paymentIntentID: "pi_5", amountOwed: 1800, status: .new)
            ],
            unreversedDisputes: [
                UnreversedDisputeRow(
                    disputeID: "dp_1", chargeID: "ch_1", created: created, currency: .usd, disputeAmount: 1000,
                    disputeStatus: "lost", destinationAccount: "acct_1", transferID: "tr_1", recoverable: 1000,
                    recovered: 250, unrecovered: 750, status: .open)
            ],
            exceptions: [
                ExceptionRow(
                    kind: .applicationFeeAmountMismatch, objectID: "ch_6", relatedID: "fee_6", currency: .usd,
                    expected: .amount(123), actual: .amount(-100),
                    message: "The fee is 1.00, not 1.23, \"as asked\"; check the fee.", status: .new),
                ExceptionRow(
                    kind: .transferDestinationMismatch, objectID: "tr_7", relatedID: nil, currency: nil,
                    expected: .text("acct_1"), actual: .text("=HYPERLINK(\"x\")"), message: "Zürich → 東京\nline 2",
                    status: .open),
            ],
            ledger: [
                LedgerRow(currency: .usd, reportingCategory: "charge", count: 3, gross: 3000, fee: 118, net: 2882),
                LedgerRow(currency: .usd, reportingCategory: "transfer", count: 2, gross: -1877, fee: 0, net: -1877),
                LedgerRow(
                    currency: .usd, balanceType: "refund_and_dispute_prefunding", reportingCategory: "refund",
                    count: 1, gross: -500, fee: 0, net: -500),
            ],
            summary: [
                SummaryRow(
                    currency: .bhd, destinationCharges: 1, gross: 10000, refunded: 0, destinationPlatformFee: 8770,
                    stripeFee: 0, skippedTransfers: 0, amountOwed: 0, unreversedDisputes: 0, unrecovered: 0),
                SummaryRow(
                    currency: .jpy, destinationCharges: 1, gross: 1_234_567, refunded: 0, destinationPlatformFee: 877,
                    stripeFee: 4321, skippedTransfers: 0, amountOwed: 0, unreversedDisputes: 0, unrecovered: 0,
                    pendingCharges: 2, pendingAmount: 1500),
                SummaryRow(
                    currency: .usd, destinationCharges: 2, gross: 2000, refunded: 1000, destinationPlatformFee: -754,
                    stripeFee: 109, skippedTransfers: 1, amountOwed: 1800, unreversedDisputes: 1, unrecovered: 750,
                    pendingCharges: 1, pendingAmount: 1234, transferGroups: 1, platformTake: 2500),
            ],
            connectedAccounts: [
                ConnectedAccountRow(
                    destinationAccount: "acct_1", currency: .usd, destinationCharges: 1, gross: 1000, transferred: 1000,
                    applicationFees: 123, destinationPlatformFee: 123, unreversedDisputes: 1, unrecovered: 750,
                    accountDebits: 500, lossesCovered: 2_000),
                ConnectedAccountRow(
                    destinationAccount: "acct_2", currency: .usd, destinationCharges: 1, gross: 1000, refunded: 1000,
                    transferred: 877, destinationPlatformFee: -877),
                ConnectedAccountRow(
                    destinationAccount: "acct_3", currency: .jpy, destinationCharges: 1, gross: 1_234_567,
                    transferred: 1_234_567, applicationFees: 877, destinationPlatformFee: 877),
                ConnectedAccountRow(
                    destinationAccount: "acct_9", currency: .usd, skippedTransfers: 1, amountOwed: 1800),
                ConnectedAccountRow(
                    destinationAccount: nil, currency: .bhd, destinationCharges: 1, gross: 10000, transferred: 10000,
                    destinationPlatformFee: 8770),
            ],
            payouts: [
                PayoutRow(
                    payoutID: "po_1", created: created, arrivalDate: 1_795_305_600, currency: .usd, amount: 1000,
                    status: "paid", reconciliationStatus: "completed", balanceTransactions: 2,
                    netOfTransactions: 1000, difference: 0),
                PayoutRow(
                    payoutID: "po_2", created: created + 1, arrivalDate: 1_795_305_600, currency: .jpy, amount: 877,
                    status: "failed", reconciliationStatus: "completed", balanceTransactions: 1,
                    netOfTransactions: 877, difference: 0),
                PayoutRow(
                    payoutID: "po_3", created: created + 2, arrivalDate: 1_795_305_600, currency: .bhd, amount: 8780,
                    status: "in_transit", reconciliationStatus: "completed", balanceTransactions: 1,
                    netOfTransactions: 8770, difference: 10),
                PayoutRow(
                    payoutID: "po_4", created: created + 3, arrivalDate: 1_795_305_600, currency: .usd, amount: 2500,
                    status: "in_transit", reconciliationStatus: "in_progress", balanceTransactions: nil,
                    netOfTransactions: nil, difference: nil),
                PayoutRow(
                    payoutID: "po_5", created: created + 4, arrivalDate: 1_795_219_200, currency: .usd, amount: 3500,
                    status: "paid", reconciliationStatus: "not_applicable", balanceTransactions: nil,
                    netOfTransactions: nil, difference: nil, automatic: false),
            ],
            payoutTransactions: [
                PayoutTransactionRow(
                    payoutID: "po_1", balanceTransactionID: "txn_p1", created: created - 86_400,
                    availableOn: 1_795_132_800, currency: .usd, gross: 1000, fee: 59, net: 941,
                    reportingCategory: "charge", sourceID: "ch_1"),
                PayoutTransactionRow(
                    payoutID: "po_1", balanceTransactionID: "txn_p2", created: created - 86_000, availableOn: nil,
                    currency: .usd, gross: 59, fee: 0, net: 59, reportingCategory: "platform_earning",
                    sourceID: "fee_1"),
                PayoutTransactionRow(
                    payoutID: "po_2", balanceTransactionID: "txn_p3", created: created - 80_000,
                    availableOn: 1_795_132_800, currency: .jpy, gross: 900, fee: 23, net: 877,
                    reportingCategory: "charge", sourceID: "ch_3"),
                PayoutTransactionRow(
                    payoutID: "po_3", balanceTransactionID: "txn_p4", created: created - 70_000,
                    availableOn: 1_795_132_800, currency: .bhd, gross: 8770, fee: 0, net: 8770,
                    reportingCategory: "-adjustment", sourceID: "=cmd"),
            ],
            dailyPlatformFees: [
                DailyPlatformFeeRow(
                    day: "2026-11-20", currency: .bhd, destinationCharges: 1, destinationPlatformFee: 8770),
                DailyPlatformFeeRow(
                    day: "2026-11-20", currency: .jpy, destinationCharges: 1, destinationPlatformFee: 877),
                DailyPlatformFeeRow(
                    day: "2026-11-20", currency: .usd, destinationCharges: 2, destinationPlatformFee: -754),
            ],
            findingCounts: [
                FindingCountRow(kind: "application_fee_amount_mismatch", new: 1),
                FindingCountRow(kind: "skipped_transfer", new: 1, resolved: 1),
                FindingCountRow(kind: "transfer_destination_mismatch", open: 1),
                FindingCountRow(kind: "unreversed_dispute", open: 1),
            ],
            balance: [
                BalanceRow(
                    currency: .bhd, balanceType: .payments, startingBalance: nil, activity: 8770,
                    activityByCategory: [.init(category: .charge, net: 8770)], payouts: 0, endingBalance: nil,
                    inTransitPayouts: nil, stripeBalance: nil, stripeBalanceAt: nil, continuityDifference: nil,
                    stripeReport: .notCompared, stripeReportDifference: nil),
                BalanceRow(
                    currency: .jpy, balanceType: .payments, startingBalance: 1000, activity: 877,
                    activityByCategory: [.init(category: .charge, net: 900), .init(category: .fee, net: -23)],
                    payouts: -877, endingBalance: 1000, inTransitPayouts: 0, stripeBalance: 1000,
                    stripeBalanceAt: 1_795_224_600, continuityDifference: 5, stripeReport: .notYetPublished,
                    stripeReportDifference: nil),
                BalanceRow(
                    currency: .usd, balanceType: .issuing, startingBalance: -500, activity: 0, activityByCategory: [],
                    payouts: 0, endingBalance: -500, inTransitPayouts: 0, stripeBalance: -500,
                    stripeBalanceAt: 1_795_224_600, continuityDifference: 0, stripeReport: .notCompared,
                    stripeReportDifference: nil),
                BalanceRow(
                    currency: .usd, balanceType: .payments, startingBalance: 3000, activity: 15000,
                    activityByCategory: [
                        .init(category: .charge, net: 15941), .init(category: .platformEarning, net: 59),
                        .init(category: .refund, net: -1000),
                    ], payouts: -6000, endingBalance: 12000, inTransitPayouts: 2500, stripeBalance: 9500,
                    stripeBalanceAt: 1_795_224_600, continuityDifference: 0, stripeReport: .agrees,
                    stripeReportDifference: 0),
            ])
        // Stripe's costs outside charges: a day named before the range, a credit, a period, a kind a spreadsheet
        // would run
        report.stripeCosts = [
            StripeCostRow(
                day: "2026-10-01", currency: .jpy, kind: "Connect: Account Volume Billing", count: 1, amount: 300),
            StripeCostRow(
                day: "2026-11-18", currency: .usd, kind: "Card payments: Transaction network costs", count: 1,
                amount: 412),
            StripeCostRow(
                day: "2026-11-19", currency: .usd, kind: "Card payments: Credit for previously-assessed fees",
                count: 1, amount: -120),
            StripeCostRow(
                day: "2026-11-19", currency: .usd, kind: "Card payments: Stripe volume fees", count: 2, amount: 1530),
            StripeCostRow(day: "2026-11-20", currency: .usd, kind: "=Radar", count: 1, amount: 0),
        ]
        report.summary[1].stripeCosts = 300
        report.summary[2].stripeCosts = 1822
        report.summary[2].accountDebits = 500
        report.summary[2].lossesCovered = 2_000
        return report
    }
}

// MARK: - Scratch folders

func text(_ url: URL) throws -> String {
    String(decoding: try Data(contentsOf: url), as: UTF8.self)
}

// MARK: - Reading workbooks back with a real reader (openpyxl)

/// Runs python3 scripts; tests that need openpyxl are skipped, with a message, when it is missing.
enum Python {
    static let executable = ExternalProgram.find("python3")

    static let hasOpenpyxl: Bool = {
        guard executable != nil, let result = try? run(["-c", "import openpyxl"]) else { return false }
        return result.status == 0
    }()

    static let skipMessage = "needs python3 with openpyxl (pip install openpyxl)"

    /// Runs python3 with `arguments`; returns the exit status, stdout and stderr.
    static func run(_ arguments: [String]) throws -> ProgramResult {
        guard let executable else { throw PythonMissing() }
        return try ExternalProgram.run(executable, arguments)
    }

    struct PythonMissing: Error {}

    /// Opens the workbook with openpyxl (formulas as written, and again for their cached values) and returns
    /// every sheet's cells with their types and number formats.
    static func readWorkbook(_ url: URL, maxRows: Int = 200) throws -> WorkbookDump {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("read-workbook-\(UUID()).py")
        try readerScript.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let result = try run([script.path, url.path, String(maxRows)])
        guard result.status == 0 else {
            Issue.record("openpyxl could not read \(url.lastPathComponent): \(result.error)")
            throw PythonMissing()
        }
        return try JSONDecoder().decode(WorkbookDump.self, from: Data(result.output.utf8))
    }

    static let readerScript = #"""
        import datetime, json, sys
        import openpyxl

        path, max_rows = sys.argv[1], int(sys.argv[2])
        formulas = openpyxl.load_workbook(path)
        values = openpyxl.load_workbook(path, data_only=True)

        def plain(value):
            if isinstance(value, (datetime.datetime, datetime.date)):
                return value.isoformat()
            return value

        sheets = []
        active = formulas.active.title
        for ws in formulas.worksheets:
            cached = values[ws.title]
            rows = []
            for row in ws.iter_rows(max_row=min(ws.max_row, max_rows)):
                rows.append([
                    {"value": plain(cell.value), "type": cell.data_type, "format": cell.number_format,
                     "cached": plain(cached[cell.coordinate].value), "bold": bool(cell.font and cell.font.b)}
                    for cell in row
                ])
            sheets.append({
                "name": ws.title, "freeze": ws.freeze_panes, "filter": ws.auto_filter.ref,
                "charts": len(ws._charts), "maxRow": ws.max_row, "rows": rows,
                "widths": {key: dim.width for key, dim in ws.column_dimensions.items()},
                "print": {"orientation": ws.page_setup.orientation,
                          "fitToWidth": ws.page_setup.fitToWidth if ws.page_setup.fitToWidth is not None else 1,
                          "fitToHeight": ws.page_setup.fitToHeight if ws.page_setup.fitToHeight is not None else 1,
                          "fitToPage": bool(ws.sheet_properties.pageSetUpPr and ws.sheet_properties.pageSetUpPr.fitToPage),
                          "titleRows": ws.print_title_rows},
            })
        print(json.dumps({"sheets": sheets, "active": active}))
        """#
}

/// What the reader script prints.
struct WorkbookDump: Decodable, Equatable {
    struct Cell: Decodable, Equatable {
        var value: JSONValue
        var type: String
        var format: String
        var cached: JSONValue
        var bold: Bool
    }

    /// How a sheet prints.
    struct Print: Decodable, Equatable {
        var orientation: String?
        var fitToWidth: Int
        var fitToHeight: Int
        var fitToPage: Bool
        var titleRows: String?
    }

    struct Sheet: Decodable, Equatable {
        var name: String
        var freeze: String?
        var filter: String?
        var charts: Int
        var maxRow: Int
        var rows: [[Cell]]
        var widths: [String: Double]
        var print: Print

        /// The header row's texts.
        var header: [String] { rows.first?.map { $0.value.string ?? "" } ?? [] }

        /// The cell of data row `row` (0 = first after the header) in the column named `column` (its docs/REPORTS.md
        /// name; the workbook's header shows its readable label, see ``label(_:)``).
        func cell(_ row: Int, _ column: String) -> Cell? {
            guard let index = header.firstIndex(of: label(column)) ?? header.firstIndex(of: column),
                row + 1 < rows.count, index < rows[row + 1].count
            else { return nil }
            return rows[row + 1][index]
        }
    }

    var sheets: [Sheet]
    /// The sheet the workbook opens on.
    var active: String
    var names: [String] { sheets.map(\.name) }
    func sheet(_ name: String) -> Sheet? { sheets.first { $0.name == name } }
}

enum JSONValue: Decodable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}

/// The workbook's header label of a docs/REPORTS.md column name: `destination_platform_fee` → `Destination platform
/// fee`, `charge_id` → `Charge ID`, `created_utc` → `Created (UTC)`.
func label(_ name: String) -> String {
    let text = name.split(separator: "_").map { word in
        switch word {
        case "id": "ID"
        case "utc": "(UTC)"
        default: String(word)
        }
    }.joined(separator: " ")
    return text.prefix(1).uppercased() + text.dropFirst()
}
