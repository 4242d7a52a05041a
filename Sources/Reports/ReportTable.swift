import ReconCore

// MARK: - Cells

/// One value of a report row, as both writers see it. The CSV writer renders it as text, the XLSX writer
/// as a typed cell; neither ever changes a figure.
enum Cell: Sendable {
    /// Text, written as a string (neutralised when a spreadsheet would run it; see ``FormulaGuard``).
    case text(String)
    /// An amount in minor units of `currency`; `nil` when the row names no currency for it.
    case amount(Int64, Currency?)
    /// A whole number that is not money (a count of objects or rows).
    case count(Int)
    /// A moment as Unix seconds, written in UTC.
    case time(Int64)
    /// A duration in seconds (the Run sheet's timings; never in a CSV).
    case seconds(Double)
    /// An optional value that is absent: an empty CSV field, an empty XLSX cell.
    case empty

    static func text(_ value: String?) -> Cell { value.map(Cell.text) ?? .empty }
    static func amount(_ value: Int64?, _ currency: Currency?) -> Cell {
        value.map { .amount($0, currency) } ?? .empty
    }
    static func exceptionValue(_ value: ExceptionValue?, _ currency: Currency?) -> Cell {
        switch value {
        case .amount(let minorUnits): .amount(minorUnits, currency)
        case .text(let text): .text(text)
        case nil: .empty
        }
    }
}

/// What a column holds: it chooses the XLSX column width, never the value's rendering.
enum ColumnKind: Sendable {
    case identifier, text, amount, count, time, mixed
}

/// A report column: its docs/REPORTS.md name (the CSV header), the workbook's readable label for it, and what it holds.
struct Column: Sendable {
    /// docs/REPORTS.md's name: `destination_platform_fee`.
    let name: String
    /// The workbook's header text: `Destination platform fee`.
    let label: String
    let kind: ColumnKind

    /// A column whose label is made from its name (see ``label(of:)``) unless one is given.
    init(_ name: String, _ kind: ColumnKind, label: String? = nil) {
        self.name = name
        self.label = label ?? Self.label(of: name)
        self.kind = kind
    }

    /// `destination_platform_fee` → `Destination platform fee`, `charge_id` → `Charge ID`,
    /// `created_utc` → `Created (UTC)`.
    static func label(of name: String) -> String {
        let words = name.split(separator: "_").map { word -> String in
            switch word {
            case "id": "ID"
            case "utc": "(UTC)"
            default: String(word)
            }
        }
        let text = words.joined(separator: " ")
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}

// MARK: - Tables

/// One report file and its sheet: the columns in docs/REPORTS.md's order and a way to fill row `i`'s cells.
/// Rows are produced one at a time into a reused buffer, so a million-row table costs no second copy.
struct ReportTable {
    /// The CSV file name, for example `platform_fees.csv`.
    let fileName: String
    /// The XLSX sheet name (continuations get ` (2)`, ` (3)`…).
    let sheetName: String
    let columns: [Column]
    let rowCount: Int
    /// Appends row `index`'s cells (exactly `columns.count` of them) to the buffer.
    let fill: (_ index: Int, _ cells: inout [Cell]) -> Void

    /// The table of `sheet` (`nil` for the Run sheet, which has no CSV file).
    static func table(_ sheet: WorkbookSheet, of report: ReconciliationReport) -> ReportTable? {
        switch sheet {
        case .summary: summary(report.summary)
        case .platformFees: platformFees(report.platformFees)
        case .transferGroups: transferGroups(report.transferGroups)
        case .skippedTransfers: skippedTransfers(report.skippedTransfers)
        case .unreversedDisputes: unreversedDisputes(report.unreversedDisputes)
        case .exceptions: exceptions(report.exceptions)
        case .connectedAccounts: connectedAccounts(report.connectedAccounts)
        case .stripeCosts: stripeCosts(report.stripeCosts)
        case .payouts: payouts(report.payouts)
        case .payoutTransactions: payoutTransactions(report.payoutTransactions)
        case .ledger: ledger(report.ledger)
        case .balance: BalanceSheet.table(report.balance)
        case .run: nil
        }
    }

    /// Every CSV table of a report, in docs/REPORTS.md's order (the workbook's order is ``WorkbookSheet``'s).
    static func tables(of report: ReconciliationReport) -> [ReportTable] {
        [
            platformFees(report.platformFees), transferGroups(report.transferGroups),
            skippedTransfers(report.skippedTransfers),
            unreversedDisputes(report.unreversedDisputes), exceptions(report.exceptions), ledger(report.ledger),
            summary(report.summary), connectedAccounts(report.connectedAccounts), stripeCosts(report.stripeCosts),
            payouts(report.payouts),
            payoutTransactions(report.payoutTransactions), balance(report.balance),
        ]
    }

    static let platformFeesFileName = "platform_fees.csv"

    static let transferGroupsColumns = [
        Column("transfer_group", .identifier), Column("created_utc", .time), Column("currency", .text),
        Column("charges", .count), Column("charged", .amount), Column("refunded", .amount),
        Column("transfers", .count), Column("transferred", .amount), Column("reversed", .amount),
        Column("platform_take", .amount), Column("stripe_fee", .amount), Column("settlement_currency", .text),
        Column("platform_net", .amount),
    ]

    static func transferGroups(_ rows: [TransferGroupRow]) -> ReportTable {
        ReportTable(
            fileName: "transfer_groups.csv", sheetName: "Transfer groups", columns: transferGroupsColumns,
            rowCount: rows.count
        ) { index, cells in
            let row = rows[index]
            cells.append(.text(row.transferGroup))
            cells.append(.time(row.created))
            cells.append(.text(row.currency?.rawValue))
            cells.append(.count(row.charges))
            cells.append(.amount(row.charged, row.currency))
            cells.append(.amount(row.refunded, row.currency))
            cells.append(.count(row.transfers))
            cells.append(.amount(row.transferred, row.currency))
            cells.append(.amount(row.reversed, row.currency))
            cells.append(.amount(row.platformTake, row.currency))
            cells.append(.amount(row.stripeFee, row.settlementCurrency))
            cells.append(.text(row.settlementCurrency?.rawValue))
            cells.append(.amount(row.platformNet, row.settlementCurrency))
        }
    }

    static let platformFeesColumns = [
        Column("charge_id", .identifier), Column("created_utc", .time), Column("currency", .text),
        Column("amount", .amount), Column("amount_refunded", .amount),
        Column("destination_account", .identifier), Column("fee_style", .text),
        Column("transfer_id", .identifier), Column("transfer_amount", .amount),
        Column("transfer_reversed", .amount), Column("application_fee_id", .identifier),
        Column("application_fee_currency", .text), Column("application_fee_amount", .amount),
        Column("application_fee_refunded", .amount),
        Column("destination_platform_fee", .amount), Column("stripe_fee", .amount),
        Column("settlement_currency", .text), Column("platform_net", .amount),
    ]

    static func platformFees(_ rows: [PlatformFeeRow]) -> ReportTable {
        ReportTable(
            fileName: platformFeesFileName, sheetName: "Platform fees", columns: platformFeesColumns,
            rowCount: rows.count
        ) { index, cells in
            rows.withElement(at: index) { row in
                cells.append(.text(row.pointee.chargeID))
                cells.append(.time(row.pointee.created))
                cells.append(.text(row.pointee.currency.rawValue))
                cells.append(.amount(row.pointee.amount, row.pointee.currency))
                cells.append(.amount(row.pointee.amountRefunded, row.pointee.currency))
                cells.append(.text(row.pointee.destinationAccount))
                cells.append(.text(row.pointee.feeStyle.rawValue))
                cells.append(.text(row.pointee.transferID))
                cells.append(.amount(row.pointee.transferAmount, row.pointee.currency))
                cells.append(.amount(row.pointee.transferReversed, row.pointee.currency))
                cells.append(.text(row.pointee.applicationFeeID))
                // The fee's amounts in the fee's own currency (a cross-border fee settles in the account's currency).
                cells.append(.text(row.pointee.applicationFeeCurrency?.rawValue))
                cells.append(.amount(row.pointee.applicationFeeAmount, row.pointee.applicationFeeCurrency))
                cells.append(.amount(row.pointee.applicationFeeRefunded, row.pointee.applicationFeeCurrency))
                cells.append(.amount(row.pointee.destinationPlatformFee, row.pointee.currency))
                cells.append(.amount(row.pointee.stripeFee, row.pointee.settlementCurrency))
                cells.append(.text(row.pointee.settlementCurrency?.rawValue))
                cells.append(.amount(row.pointee.platformNet, row.pointee.settlementCurrency))
            }
        }
    }

    static func skippedTransfers(_ rows: [SkippedTransferRow]) -> ReportTable {
        ReportTable(
            fileName: "skipped_transfers.csv", sheetName: "Skipped transfers",
            columns: [
                Column("charge_id", .identifier), Column("created_utc", .time), Column("currency", .text),
                Column("amount", .amount), Column("intended_destination", .identifier),
                Column("payment_intent_id", .identifier), Column("amount_owed", .amount), Column("status", .text),
            ],
            rowCount: rows.count
        ) { index, cells in
            let row = rows[index]
            cells.append(.text(row.chargeID))
            cells.append(.time(row.created))
            cells.append(.text(row.currency.rawValue))
            cells.append(.amount(row.amount, row.currency))
            cells.append(.text(row.intendedDestination))
            cells.append(.text(row.paymentIntentID))
            cells.append(.amount(row.amountOwed, row.currency))
            cells.append(.text(row.status.rawValue))
        }
    }

    static func unreversedDisputes(_ rows: [UnreversedDisputeRow]) -> ReportTable {
        ReportTable(
            fileName: "unreversed_disputes.csv", sheetName: "Unreversed disputes",
            columns: [
                Column("dispute_id", .identifier), Column("charge_id", .identifier), Column("created_utc", .time),
                Column("currency", .text), Column("dispute_amount", .amount), Column("dispute_status", .text),
                Column("destination_account", .identifier), Column("transfer_id", .identifier),
                Column("recoverable", .amount), Column("recovered", .amount), Column("unrecovered", .amount),
                Column("status", .text),
            ],
            rowCount: rows.count
        ) { index, cells in
            let row = rows[index]
            cells.append(.text(row.disputeID))
            cells.append(.text(row.chargeID))
            cells.append(.time(row.created))
            cells.append(.text(row.currency.rawValue))
            cells.append(.amount(row.disputeAmount, row.currency))
            cells.append(.text(row.disputeStatus.rawValue))
            cells.append(.text(row.destinationAccount))
            cells.append(.text(row.transferID))
            cells.append(.amount(row.recoverable, row.currency))
            cells.append(.amount(row.recovered, row.currency))
            cells.append(.amount(row.unrecovered, row.currency))
            cells.append(.text(row.status.rawValue))
        }
    }

    /// docs/REPORTS.md's seven columns, then `status` (at least these, in this order; extra columns go last).
    static func exceptions(_ rows: [ExceptionRow]) -> ReportTable {
        ReportTable(
            fileName: "exceptions.csv", sheetName: "Exceptions",
            columns: [
                Column("kind", .text), Column("object_id", .identifier), Column("related_id", .identifier),
                Column("currency", .text), Column("expected", .mixed), Column("actual", .mixed),
                Column("message", .text), Column("status", .text),
            ],
            rowCount: rows.count
        ) { index, cells in
            let row = rows[index]
            cells.append(.text(row.kind.rawValue))
            cells.append(.text(row.objectID))
            cells.append(.text(row.relatedID))
            cells.append(.text(row.currency?.rawValue))
            cells.append(.exceptionValue(row.expected, row.currency))
            cells.append(.exceptionValue(row.actual, row.currency))
            cells.append(.text(row.message))
            cells.append(.text(row.status.rawValue))
        }
    }

    static func ledger(_ rows: [LedgerRow]) -> ReportTable {
        ReportTable(
            fileName: "ledger.csv", sheetName: "Ledger",
            columns: [
                Column("currency", .text), Column("balance_type", .text), Column("reporting_category", .text),
                Column("count", .count),
                Column("gross", .amount), Column("fee", .amount), Column("net", .amount),
            ],
            rowCount: rows.count
        ) { index, cells in
            let row = rows[index]
            cells.append(.text(row.currency.rawValue))
            cells.append(.text(row.balanceType.rawValue))
            cells.append(.text(row.reportingCategory.rawValue))
            cells.append(.count(row.count))
            cells.append(.amount(row.gross, row.currency))
            cells.append(.amount(row.fee, row.currency))
            cells.append(.amount(row.net, row.currency))
        }
    }

    static let connectedAccountsColumns = [
        Column("destination_account", .identifier), Column("currency", .text),
        Column("destination_charges", .count), Column("gross", .amount), Column("refunded", .amount),
        Column("transferred", .amount), Column("reversed", .amount), Column("application_fees", .amount),
        Column("destination_platform_fee", .amount), Column("skipped_transfers", .count),
        Column("amount_owed", .amount), Column("unreversed_disputes", .count), Column("unrecovered", .amount),
        Column("account_debits", .amount), Column("losses_covered", .amount),
    ]

    static func connectedAccounts(_ rows: [ConnectedAccountRow]) -> ReportTable {
        ReportTable(
            fileName: "connected_accounts.csv", sheetName: "Connected accounts", columns: connectedAccountsColumns,
            rowCount: rows.count
        ) { index, cells in
            let row = rows[index]
            cells.append(.text(row.destinationAccount))
            cells.append(.text(row.currency.rawValue))
            cells.append(.count(row.destinationCharges))
            cells.append(.amount(row.gross, row.currency))
            cells.append(.amount(row.refunded, row.currency))
            cells.append(.amount(row.transferred, row.currency))
            cells.append(.amount(row.reversed, row.currency))
            cells.append(.amount(row.applicationFees, row.currency))
            cells.append(.amount(row.destinationPlatformFee, row.currency))
            cells.append(.count(row.skippedTransfers))
            cells.append(.amount(row.amountOwed, row.currency))
            cells.append(.count(row.unreversedDisputes))
            cells.append(.amount(row.unrecovered, row.currency))
            cells.append(.amount(row.accountDebits, row.currency))
            cells.append(.amount(row.lossesCovered, row.currency))
        }
    }

    /// `arrival_date` is Stripe's midnight UTC of the expected day, written as a time like the others.
    static func payouts(_ rows: [PayoutRow]) -> ReportTable {
        ReportTable(
            fileName: "payouts.csv", sheetName: "Payouts",
            columns: [
                Column("payout_id", .identifier), Column("created_utc", .time),
                Column("arrival_date", .time), Column("currency", .text),
                Column("amount", .amount), Column("status", .text), Column("reconciliation_status", .text),
                Column("balance_transactions", .count),
                Column("net_of_transactions", .amount), Column("difference", .amount), Column("type", .text),
            ],
            rowCount: rows.count
        ) { index, cells in
            let row = rows[index]
            cells.append(.text(row.payoutID))
            cells.append(.time(row.created))
            cells.append(.time(row.arrivalDate))
            cells.append(.text(row.currency.rawValue))
            cells.append(.amount(row.amount, row.currency))
            cells.append(.text(row.status.rawValue))
            cells.append(.text(row.reconciliationStatus?.rawValue))
            cells.append(row.balanceTransactions.map(Cell.count) ?? .empty)
            cells.append(.amount(row.netOfTransactions, row.currency))
            cells.append(.amount(row.difference, row.currency))
            cells.append(.text(row.automatic ? "automatic" : "manual"))
        }
    }

    static func payoutTransactions(_ rows: [PayoutTransactionRow]) -> ReportTable {
        ReportTable(
            fileName: "payout_transactions.csv", sheetName: "Payout transactions",
            columns: [
                Column("payout_id", .identifier), Column("balance_transaction_id", .identifier),
                Column("created_utc", .time), Column("available_on", .time),
                Column("currency", .text), Column("gross", .amount), Column("fee", .amount), Column("net", .amount),
                Column("reporting_category", .text), Column("source_id", .identifier),
            ],
            rowCount: rows.count
        ) { index, cells in
            rows.withElement(at: index) { row in
                cells.append(.text(row.pointee.payoutID))
                cells.append(.text(row.pointee.balanceTransactionID))
                cells.append(.time(row.pointee.created))
                cells.append(row.pointee.availableOn.map(Cell.time) ?? .empty)
                cells.append(.text(row.pointee.currency.rawValue))
                cells.append(.amount(row.pointee.gross, row.pointee.currency))
                cells.append(.amount(row.pointee.fee, row.pointee.currency))
                cells.append(.amount(row.pointee.net, row.pointee.currency))
                cells.append(.text(row.pointee.reportingCategory.rawValue))
                cells.append(.text(row.pointee.sourceID))
            }
        }
    }

    static func summary(_ rows: [SummaryRow]) -> ReportTable {
        ReportTable(
            fileName: "summary.csv", sheetName: "Summary",
            columns: summaryColumns,
            rowCount: rows.count
        ) { index, cells in
            let row = rows[index]
            cells.append(.text(row.currency.rawValue))
            cells.append(.count(row.destinationCharges))
            cells.append(.amount(row.gross, row.currency))
            cells.append(.amount(row.refunded, row.currency))
            cells.append(.amount(row.destinationPlatformFee, row.currency))
            cells.append(.amount(row.stripeFee, row.currency))
            cells.append(.count(row.skippedTransfers))
            cells.append(.amount(row.amountOwed, row.currency))
            cells.append(.count(row.unreversedDisputes))
            cells.append(.amount(row.unrecovered, row.currency))
            cells.append(.count(row.pendingCharges))
            cells.append(.amount(row.pendingAmount, row.currency))
            cells.append(.count(row.transferGroups))
            cells.append(.amount(row.platformTake, row.currency))
            cells.append(.amount(row.stripeCosts, row.currency))
            cells.append(.amount(row.accountDebits, row.currency))
            cells.append(.amount(row.lossesCovered, row.currency))
        }
    }

    static func stripeCosts(_ rows: [StripeCostRow]) -> ReportTable {
        ReportTable(
            fileName: "stripe_costs.csv", sheetName: "Stripe costs",
            columns: [
                Column("day", .text), Column("currency", .text), Column("kind", .text), Column("count", .count),
                Column("amount", .amount),
            ],
            rowCount: rows.count
        ) { index, cells in
            let row = rows[index]
            cells.append(.text(row.day))
            cells.append(.text(row.currency.rawValue))
            cells.append(.text(row.kind))
            cells.append(.count(row.count))
            cells.append(.amount(row.amount, row.currency))
        }
    }

    static let summaryColumns = [
        Column("currency", .text), Column("destination_charges", .count), Column("gross", .amount),
        Column("refunded", .amount), Column("destination_platform_fee", .amount), Column("stripe_fee", .amount),
        Column("skipped_transfers", .count), Column("amount_owed", .amount), Column("unreversed_disputes", .count),
        Column("unrecovered", .amount), Column("pending_charges", .count), Column("pending_amount", .amount),
        Column("transfer_groups", .count), Column("platform_take", .amount), Column("stripe_costs", .amount),
        Column("account_debits", .amount), Column("losses_covered", .amount),
    ]
}
