import Foundation
import ReconCore
import Reconcile
import Sandbox
import SandboxTruth
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
        /// The share of the random charges made transfer groups (separate charges and transfers).
        var transferGroupShare = 0.0
    }

    static let worlds = [
        World(seed: 42, charges: 400, days: 10), World(seed: 7, charges: 600, days: 10),
        World(seed: 11, charges: 500, days: 10, transferGroupShare: 0.2),
    ]

    @Test(arguments: worlds)
    func theWholeWorldMatchesTheGroundTruthRowByRow(_ spec: World) async throws {
        // Given a sandbox world and every object it serves, as facts
        let (world, facts) = try await SandboxFacts.load(
            seed: spec.seed, charges: spec.charges, start: Self.start, days: spec.days,
            transferGroupShare: spec.transferGroupShare)
        let range = try ReportingRange(from: world.start, to: world.end, timeZone: .gmt)
        #expect(world.groundTruth(for: range, asOf: world.end, skippedTransferGrace: 3_600).transferGroups.count >= 8)
        // When the reconciler and the ground truth reconcile the whole world (payouts included)
        try compare(world: world, facts: facts, range: range, asOf: world.end, withPayouts: true)
    }

    @Test(arguments: worlds)
    func aMidRangeSliceMatchesTheGroundTruthRowByRow(_ spec: World) async throws {
        // Given a slice of days 3–5: objects created outside it are still in the input, as the extraction fetches
        // what the range's objects refer to
        let (world, facts) = try await SandboxFacts.load(
            seed: spec.seed, charges: spec.charges, start: Self.start, days: spec.days,
            transferGroupShare: spec.transferGroupShare)
        let from = world.start.addingTimeInterval(3 * 86_400)
        let range = try ReportingRange(from: from, to: from.addingTimeInterval(2 * 86_400), timeZone: .gmt)
        // When both reconcile the slice at the world's end
        try compare(world: world, facts: facts, range: range, asOf: world.end)
    }

    @Test(arguments: worlds)
    func aSliceReconciledFromWhatTheExtractionHoldsMatchesTheGroundTruth(_ spec: World) async throws {
        // Given days 3–5 and only the objects docs/EXTRACTION.md's extraction holds for them (no later, unreferenced
        // objects)
        let (world, facts) = try await SandboxFacts.load(
            seed: spec.seed, charges: spec.charges, start: Self.start, days: spec.days,
            transferGroupShare: spec.transferGroupShare)
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

    /// Compares the reconciler's report for `facts` with the world's ground truth, row by row. `withPayouts`: the
    /// range must hold payouts (`nil`: it may not, a slice early in a world whose balance was not positive yet).
    private func compare(
        world: SandboxWorld, facts: ObjectLists, range: ReportingRange, asOf: Date, withPayouts: Bool? = nil
    ) throws {
        let truth = world.groundTruth(for: range, asOf: asOf, skippedTransferGrace: TimeInterval(Self.grace))
        let input = facts.input(
            from: range.unixSeconds.from, to: range.unixSeconds.to, asOf: truth.asOf, grace: Self.grace)
        let report = Reconciler.reconcile(input)

        // Then every report agrees with the ground truth, row by row
        GroundTruthComparison.expectMatches(report, truth, withPayouts: withPayouts ?? !truth.payouts.isEmpty)
        // The transfer groups too (docs/RULES.md, docs/RULES.md "transfer groups"), every field, in the report's order
        let extra = Set(report.transferGroups).subtracting(truth.transferGroups)
        let lacking = Set(truth.transferGroups).subtracting(report.transferGroups)
        #expect(report.transferGroups.count == truth.transferGroups.count, "transfer_groups: row count")
        #expect(extra.isEmpty, "transfer_groups: rows the ground truth lacks: \(Array(extra.prefix(5)))")
        #expect(lacking.isEmpty, "transfer_groups: ground-truth rows the reconciler lacks: \(Array(lacking.prefix(5)))")
        #expect(report.transferGroups.map(\.transferGroup) == truth.transferGroups.map(\.transferGroup))
        let summaries = Dictionary(uniqueKeysWithValues: report.summary.map { ($0.currency, $0) })
        for row in truth.summary {
            #expect(summaries[row.currency]?.transferGroups == row.transferGroups, "\(row.currency) transfer_groups")
            #expect(summaries[row.currency]?.platformTake == row.platformTake, "\(row.currency) platform_take")
        }
    }
}
