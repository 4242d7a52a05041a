import Foundation
import ReconCore
import Reconcile
import Sandbox
import Testing

/// The reconciler against the sandbox's ground truth: the sandbox computes what each report must contain from the
/// tables it generated; the reconciler computes it from the JSON the sandbox serves. Row by row, they must agree.
@Suite struct GroundTruthTests {
    static let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01T00:00:00Z
    static let day: Int64 = 86_400
    static let grace: Int64 = 3_600

    struct World: Sendable {
        var seed: UInt64
        var charges: Int
        var days: Int
    }

    static let worlds = [World(seed: 42, charges: 400, days: 10), World(seed: 7, charges: 600, days: 10)]

    @Test(arguments: worlds)
    func theWholeWorldMatchesTheGroundTruthRowByRow(_ spec: World) async throws {
        // Given a sandbox world and every object it serves, as facts
        let (world, facts) = try await SandboxFacts.load(
            seed: spec.seed, charges: spec.charges, start: Self.start, days: spec.days)
        let range = try ReportingRange(from: world.start, to: world.end, timeZone: .gmt)
        // When the reconciler and the ground truth reconcile the whole world
        try compare(world: world, facts: facts, range: range, asOf: world.end)
    }

    @Test(arguments: worlds)
    func aMidRangeSliceMatchesTheGroundTruthRowByRow(_ spec: World) async throws {
        // Given a slice of days 3–5: objects created outside it are still in the input, as the extraction fetches
        // what the range's objects refer to
        let (world, facts) = try await SandboxFacts.load(
            seed: spec.seed, charges: spec.charges, start: Self.start, days: spec.days)
        let from = world.start.addingTimeInterval(3 * 86_400)
        let range = try ReportingRange(from: from, to: from.addingTimeInterval(2 * 86_400), timeZone: .gmt)
        // When both reconcile the slice at the world's end
        try compare(world: world, facts: facts, range: range, asOf: world.end)
    }

    @Test(arguments: worlds)
    func aSliceReconciledFromWhatTheExtractionHoldsMatchesTheGroundTruth(_ spec: World) async throws {
        // Given days 3–5 and only the objects SPEC §3's extraction holds for them (no later, unreferenced objects)
        let (world, facts) = try await SandboxFacts.load(
            seed: spec.seed, charges: spec.charges, start: Self.start, days: spec.days)
        let from = world.start.addingTimeInterval(3 * 86_400)
        let range = try ReportingRange(from: from, to: from.addingTimeInterval(2 * 86_400), timeZone: .gmt)
        let closure = facts.closure(from: range.unixSeconds.from, to: range.unixSeconds.to)
        #expect(closure.charges.count < facts.charges.count)
        // When both reconcile the slice, then they agree
        try compare(world: world, facts: closure, range: range, asOf: world.end)
    }

    @Test func aSliceReconciledBeforeTheYoungChargesLeaveTheirGracePeriodMatches() async throws {
        // Given the last day, reconciled 20 minutes before the world's end: the young charges are inside the grace
        let (world, facts) = try await SandboxFacts.load(seed: 42, charges: 400, start: Self.start, days: 10)
        let range = try ReportingRange(
            from: world.end.addingTimeInterval(-86_400), to: world.end, timeZone: .gmt)
        try compare(world: world, facts: facts, range: range, asOf: world.end.addingTimeInterval(3 * 3_600))
        try compare(world: world, facts: facts, range: range, asOf: world.end)
    }

    // MARK: Comparison

    /// Compares the reconciler's report for `facts` with the world's ground truth, row by row.
    private func compare(world: SandboxWorld, facts: SandboxFacts, range: ReportingRange, asOf: Date) throws {
        let truth = world.groundTruth(for: range, asOf: asOf, skippedTransferGrace: TimeInterval(Self.grace))
        let input = facts.input(
            from: range.unixSeconds.from, to: range.unixSeconds.to, asOf: truth.asOf, grace: Self.grace)
        let report = Reconciler.reconcile(input)

        // Then every report agrees with the ground truth, row by row
        #expect(!truth.platformFees.isEmpty)
        expectSame(report.platformFees.map(FeeLine.init), truth.platformFees.map(FeeLine.init), "platform_fees")
        expectSame(
            report.skippedTransfers.map(SkippedLine.init), truth.skippedTransfers.map(SkippedLine.init),
            "skipped_transfers")
        expectSame(
            report.unreversedDisputes.map(DisputeLine.init), truth.unreversedDisputes.map(DisputeLine.init),
            "unreversed_disputes")
        let won = ExceptionKind.wonDisputeNotRepaid.rawValue
        expectSame(
            report.exceptions.filter { $0.kind.rawValue != won }.map(ExceptionLine.init),
            truth.exceptions.filter { $0.kind.rawValue != won }.map(ExceptionLine.init), "exceptions")
        let wonActual = report.exceptions.filter { $0.kind.rawValue == won }.map(ExceptionLine.init)
        let wonExpected = truth.exceptions.filter { $0.kind.rawValue == won }.map(ExceptionLine.init)
        expectSame(wonActual, wonExpected, won)
        expectSame(report.ledger.map(LedgerLine.init), truth.ledger.map(LedgerLine.init), "ledger")
        expectSame(report.summary.map(SummaryLine.init), truth.summary.map(SummaryLine.init), "summary")
        #expect(report.exceptions.allSatisfy { $0.status == .new && !$0.message.isEmpty })
    }

    private func expectSame<Line: Hashable & Comparable>(
        _ actual: [Line], _ expected: [Line], _ name: String, sourceLocation: SourceLocation = #_sourceLocation
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

struct FeeLine: Hashable, Comparable, CustomStringConvertible {
    var text: String
    init(_ r: PlatformFeeRow) {
        text = [
            r.chargeID, "\(r.created)", r.currency.rawValue, "\(r.amount)", "\(r.amountRefunded)",
            r.destinationAccount ?? "-", r.feeStyle.rawValue, r.transferID ?? "-", "\(r.transferAmount ?? 0)",
            "\(r.transferReversed ?? 0)", r.applicationFeeID ?? "-", "\(r.applicationFeeAmount ?? 0)",
            "\(r.applicationFeeRefunded ?? 0)", "\(r.destinationPlatformFee)", "\(r.stripeFee ?? 0)",
            r.settlementCurrency?.rawValue ?? "-", r.platformNet.map { "\($0)" } ?? "nil",
        ].joined(separator: " ")
    }
    init(_ r: GroundTruth.PlatformFee) {
        text = [
            r.chargeID, "\(r.created)", r.currency.rawValue, "\(r.amount)", "\(r.amountRefunded)",
            r.destinationAccount ?? "-", r.feeStyle, r.transferID ?? "-", "\(r.transferAmount)",
            "\(r.transferReversed)", r.applicationFeeID ?? "-", "\(r.applicationFeeAmount)",
            "\(r.applicationFeeRefunded)", "\(r.destinationPlatformFee)", "\(r.stripeFee)",
            r.settlementCurrency.rawValue, "\(r.platformNet)",
        ].joined(separator: " ")
    }
    static func < (a: Self, b: Self) -> Bool { a.text < b.text }
    var description: String { text }
}

struct SkippedLine: Hashable, Comparable, CustomStringConvertible {
    var text: String
    init(_ r: SkippedTransferRow) {
        text =
            "\(r.chargeID) \(r.created) \(r.currency) \(r.amount) \(r.intendedDestination) \(r.paymentIntentID) "
            + "\(r.amountOwed)"
    }
    init(_ r: GroundTruth.SkippedTransfer) {
        text =
            "\(r.chargeID) \(r.created) \(r.currency) \(r.amount) \(r.intendedDestination) \(r.paymentIntentID) "
            + "\(r.amountOwed)"
    }
    static func < (a: Self, b: Self) -> Bool { a.text < b.text }
    var description: String { text }
}

struct DisputeLine: Hashable, Comparable, CustomStringConvertible {
    var text: String
    init(_ r: UnreversedDisputeRow) {
        text =
            "\(r.disputeID) \(r.chargeID) \(r.created) \(r.currency) \(r.disputeAmount) \(r.disputeStatus) "
            + "\(r.destinationAccount ?? "-") \(r.transferID ?? "-") \(r.recoverable) \(r.recovered) \(r.unrecovered)"
    }
    init(_ r: GroundTruth.UnreversedDispute) {
        text =
            "\(r.disputeID) \(r.chargeID) \(r.created) \(r.currency) \(r.disputeAmount) \(r.disputeStatus) "
            + "\(r.destinationAccount ?? "-") \(r.transferID ?? "-") \(r.recoverable) \(r.recovered) \(r.unrecovered)"
    }
    static func < (a: Self, b: Self) -> Bool { a.text < b.text }
    var description: String { text }
}

struct ExceptionLine: Hashable, Comparable, CustomStringConvertible {
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
    static func value(_ v: GroundTruth.Value?) -> String {
        switch v {
        case .amount(let amount): "\(amount)"
        case .text(let text): text
        case nil: "-"
        }
    }
    static func < (a: Self, b: Self) -> Bool { a.text < b.text }
    var description: String { text }
}

struct LedgerLine: Hashable, Comparable, CustomStringConvertible {
    var text: String
    init(_ r: LedgerRow) { text = "\(r.currency) \(r.reportingCategory) \(r.count) \(r.gross) \(r.fee) \(r.net)" }
    init(_ r: GroundTruth.LedgerRow) {
        text = "\(r.currency) \(r.reportingCategory) \(r.count) \(r.gross) \(r.fee) \(r.net)"
    }
    static func < (a: Self, b: Self) -> Bool { a.text < b.text }
    var description: String { text }
}

struct SummaryLine: Hashable, Comparable, CustomStringConvertible {
    var text: String
    init(_ r: SummaryRow) {
        text =
            "\(r.currency) \(r.destinationCharges) \(r.gross) \(r.refunded) \(r.destinationPlatformFee) "
            + "\(r.stripeFee) \(r.skippedTransfers) \(r.amountOwed) \(r.unreversedDisputes) \(r.unrecovered)"
    }
    init(_ r: GroundTruth.SummaryRow) {
        text =
            "\(r.currency) \(r.destinationCharges) \(r.gross) \(r.refunded) \(r.destinationPlatformFee) "
            + "\(r.stripeFee) \(r.skippedTransfers) \(r.amountOwed) \(r.unreversedDisputes) \(r.unrecovered)"
    }
    static func < (a: Self, b: Self) -> Bool { a.text < b.text }
    var description: String { text }
}
