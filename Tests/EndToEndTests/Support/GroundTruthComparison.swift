import ReconCore
import Sandbox
import SandboxTruth
import Testing

/// The reconciler's report against the sandbox's ground truth, row by row: shared by the suites that reconcile
/// facts built from the world and the suites that reconcile a history extracted from the sandbox.
enum GroundTruthComparison {
    /// `withPayouts`: whether the range holds a payout (the world's are made daily at 06:00 UTC).
    static func expectMatches(
        _ report: ReconciliationReport, _ truth: GroundTruth, withPayouts: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!truth.platformFees.isEmpty, sourceLocation: sourceLocation)
        expectSame(
            report.platformFees.map(FeeLine.init), truth.platformFees.map(FeeLine.init), "platform_fees",
            sourceLocation)
        expectSame(
            report.skippedTransfers.map(SkippedLine.init), truth.skippedTransfers.map(SkippedLine.init),
            "skipped_transfers", sourceLocation)
        expectSame(
            report.unreversedDisputes.map(DisputeLine.init), truth.unreversedDisputes.map(DisputeLine.init),
            "unreversed_disputes", sourceLocation)
        let won = ExceptionKind.wonDisputeNotRepaid.rawValue
        expectSame(
            report.exceptions.filter { $0.kind.rawValue != won }.map(ExceptionLine.init),
            truth.exceptions.filter { $0.kind.rawValue != won }.map(ExceptionLine.init), "exceptions", sourceLocation)
        let wonActual = report.exceptions.filter { $0.kind.rawValue == won }.map(ExceptionLine.init)
        let wonExpected = truth.exceptions.filter { $0.kind.rawValue == won }.map(ExceptionLine.init)
        expectSame(wonActual, wonExpected, won, sourceLocation)
        expectSame(report.ledger.map(LedgerLine.init), truth.ledger.map(LedgerLine.init), "ledger", sourceLocation)
        expectSame(
            report.summary.map(SummaryLine.init), truth.summary.map(SummaryLine.init), "summary", sourceLocation)
        #expect(!truth.connectedAccounts.isEmpty, sourceLocation: sourceLocation)
        expectSame(
            report.connectedAccounts.map(AccountLine.init), truth.connectedAccounts.map(AccountLine.init),
            "connected_accounts", sourceLocation)
        expectSame(
            report.stripeCosts.map(StripeCostLine.init), truth.stripeCosts.map(StripeCostLine.init), "stripe_costs",
            sourceLocation)
        #expect(truth.payouts.isEmpty != withPayouts, sourceLocation: sourceLocation)
        expectSame(report.payouts.map(PayoutLine.init), truth.payouts.map(PayoutLine.init), "payouts", sourceLocation)
        expectSame(
            report.payoutTransactions.map(PayoutTransactionLine.init),
            truth.payoutTransactions.map(PayoutTransactionLine.init), "payout_transactions", sourceLocation)
        #expect(
            report.exceptions.allSatisfy { $0.status == .new && !$0.message.isEmpty }, sourceLocation: sourceLocation)
    }

    private static func expectSame<Line: Hashable & Comparable>(
        _ actual: [Line], _ expected: [Line], _ name: String, _ sourceLocation: SourceLocation
    ) {
        #expect(actual.count == expected.count, "\(name): row count", sourceLocation: sourceLocation)
        let extra = Set(actual).subtracting(expected).sorted()
        let lacking = Set(expected).subtracting(actual).sorted()
        #expect(
            extra.isEmpty, "\(name): rows the ground truth lacks: \(extra.prefix(5))", sourceLocation: sourceLocation)
        #expect(
            lacking.isEmpty, "\(name): ground-truth rows the reconciler lacks: \(lacking.prefix(5))",
            sourceLocation: sourceLocation)
    }
}

// MARK: - Comparable lines (the reconciler's optionals read as the ground truth's zeros)

struct FeeLine: ReportLine {
    var text: String
    init(_ r: PlatformFeeRow) {
        text = [
            r.chargeID, "\(r.created)", r.currency.rawValue, "\(r.amount)", "\(r.amountRefunded)",
            r.destinationAccount ?? "-", r.feeStyle.rawValue, r.transferID ?? "-", "\(r.transferAmount ?? 0)",
            "\(r.transferReversed ?? 0)", r.applicationFeeID ?? "-", r.applicationFeeCurrency?.rawValue ?? "-",
            "\(r.applicationFeeAmount ?? 0)", "\(r.applicationFeeRefunded ?? 0)", "\(r.destinationPlatformFee)",
            "\(r.stripeFee ?? 0)", r.settlementCurrency?.rawValue ?? "-", r.platformNet.map { "\($0)" } ?? "nil",
        ].joined(separator: " ")
    }
    init(_ r: GroundTruth.PlatformFee) {
        text = [
            r.chargeID, "\(r.created)", r.currency.rawValue, "\(r.amount)", "\(r.amountRefunded)",
            r.destinationAccount ?? "-", r.feeStyle.rawValue, r.transferID ?? "-", "\(r.transferAmount)",
            "\(r.transferReversed)", r.applicationFeeID ?? "-", r.applicationFeeCurrency?.rawValue ?? "-",
            "\(r.applicationFeeAmount)", "\(r.applicationFeeRefunded)", "\(r.destinationPlatformFee)",
            "\(r.stripeFee)", r.settlementCurrency?.rawValue ?? "-", r.platformNet.map { "\($0)" } ?? "nil",
        ].joined(separator: " ")
    }
}

struct SkippedLine: ReportLine {
    var text: String
    init(_ r: SkippedTransferRow) {
        text =
            "\(r.chargeID) \(r.created) \(r.currency) \(r.amount) \(r.intendedDestination) \(r.paymentIntentID) "
            + "\(r.amountOwed)"
    }
}

struct DisputeLine: ReportLine {
    var text: String
    init(_ r: UnreversedDisputeRow) {
        text =
            "\(r.disputeID) \(r.chargeID) \(r.created) \(r.currency) \(r.disputeAmount) \(r.disputeStatus) "
            + "\(r.destinationAccount ?? "-") \(r.transferID ?? "-") \(r.recoverable) \(r.recovered) \(r.unrecovered)"
    }
}

struct ExceptionLine: ReportLine {
    var text: String
    init(_ r: ExceptionRow) {
        text =
            "\(r.kind.rawValue) \(r.objectID) \(r.relatedID ?? "-") \(r.currency?.rawValue ?? "-") "
            + "\(Self.value(r.expected)) \(Self.value(r.actual))"
    }
    init(_ r: GroundTruth.Exception) {
        text =
            "\(r.kind.rawValue) \(r.objectID) \(r.relatedID ?? "-") \(r.currency.rawValue) "
            + "\(Self.value(r.expected)) \(Self.value(r.actual))"
    }
    static func value(_ v: ExceptionValue?) -> String {
        switch v {
        case .amount(let amount): "\(amount)"
        case .text(let text): text
        case nil: "-"
        }
    }
}

struct LedgerLine: ReportLine {
    var text: String
    init(_ r: LedgerRow) {
        text = "\(r.currency) \(r.balanceType) \(r.reportingCategory) \(r.count) \(r.gross) \(r.fee) \(r.net)"
    }
}

struct SummaryLine: ReportLine {
    var text: String
    init(_ r: SummaryRow) {
        text =
            "\(r.currency) \(r.destinationCharges) \(r.gross) \(r.refunded) \(r.destinationPlatformFee) "
            + "\(r.stripeFee) \(r.skippedTransfers) \(r.amountOwed) \(r.unreversedDisputes) \(r.unrecovered) "
            + "\(r.stripeCosts) \(r.accountDebits) \(r.lossesCovered)"
    }
}

struct StripeCostLine: ReportLine {
    var text: String
    init(_ r: StripeCostRow) { text = "\(r.day) \(r.currency) \(r.kind) \(r.count) \(r.amount)" }
}

struct AccountLine: ReportLine {
    var text: String
    init(_ r: ConnectedAccountRow) {
        text =
            "\(r.destinationAccount ?? "-") \(r.currency) \(r.destinationCharges) \(r.gross) \(r.refunded) "
            + "\(r.transferred) \(r.reversed) \(r.applicationFees) \(r.destinationPlatformFee) \(r.skippedTransfers) "
            + "\(r.amountOwed) \(r.unreversedDisputes) \(r.unrecovered) \(r.accountDebits) \(r.lossesCovered)"
    }
}

struct PayoutLine: ReportLine {
    var text: String
    init(_ r: PayoutRow) {
        text =
            "\(r.payoutID) \(r.created) \(r.arrivalDate) \(r.currency) \(r.amount) \(r.status) "
            + "\(r.reconciliationStatus ?? "-") \(r.balanceTransactions.map { "\($0)" } ?? "-") "
            + "\(r.netOfTransactions.map { "\($0)" } ?? "-") \(r.difference.map { "\($0)" } ?? "-")"
    }
}

struct PayoutTransactionLine: ReportLine {
    var text: String
    init(_ r: PayoutTransactionRow) {
        text =
            "\(r.payoutID) \(r.balanceTransactionID) \(r.created) \(r.availableOn.map { "\($0)" } ?? "-") "
            + "\(r.currency) \(r.gross) \(r.fee) \(r.net) \(r.reportingCategory) \(r.sourceID ?? "-")"
    }
}

/// A report row, or its ground-truth twin, as one comparable line of text: rows compare equal when every figure
/// the comparison reads is the same, and a difference prints as the lines that differ.
protocol ReportLine: Hashable, Comparable, CustomStringConvertible {
    var text: String { get }
}

extension ReportLine {
    static func < (a: Self, b: Self) -> Bool { a.text < b.text }
    var description: String { text }
}
