import Foundation
import ReconCore
import Reconcile
import Sandbox
import SandboxTruth
import Testing

/// Payout reconciliation (docs/RULES.md, §5) of a whole sandbox world: its deliberately failed and mismatched payouts,
/// among payouts that add up and payouts Stripe is still reconciling.
@Suite struct SandboxPayoutTests {
    @Test func theSandboxsFailedAndMismatchedPayoutsAreFound() async throws {
        // Given a sandbox world of 30 days with its deliberately failed and mismatched payouts
        let (world, facts) = try await SandboxFacts.load(
            seed: 42, charges: 2_000, start: GroundTruthTests.start, days: 30)
        let failed = Set(world.ids(for: .payoutFailed))
        let mismatched = Set(world.ids(for: .payoutMismatch))
        #expect(!failed.isEmpty && !mismatched.isEmpty)
        // When the whole world is reconciled
        let range = try ReportingRange(from: world.start, to: world.end, timeZone: .gmt)
        let report = Reconciler.reconcile(
            facts.input(
                from: range.unixSeconds.from, to: range.unixSeconds.to, asOf: range.unixSeconds.to, grace: 3_600))
        // Then every report is the ground truth's
        GroundTruthComparison.expectMatches(
            report,
            world.groundTruth(for: range, asOf: range.to, skippedTransferGrace: 3_600))
        // And exactly those payouts are reported, and every other payout adds up
        #expect(Set(report.exceptions.filter { $0.kind == .payoutFailed }.map(\.objectID)) == failed)
        #expect(Set(report.exceptions.filter { $0.kind == .payoutMismatch }.map(\.objectID)) == mismatched)
        // (a payout Stripe is still reconciling has no difference yet)
        #expect(Set(report.payouts.filter { ($0.difference ?? 0) != 0 }.map(\.payoutID)) == mismatched)
        for payout in world.payouts() {
            let row = report.payouts.first { $0.payoutID == payout.id }
            #expect(row?.reconciliationStatus?.rawValue == payout.reconciliationStatus, "\(payout.id)")
            guard payout.reconciliationStatus == "completed" else {
                #expect(row?.netOfTransactions == nil, "\(payout.id)")
                continue
            }
            #expect(row?.netOfTransactions == payout.netOfTransactions, "\(payout.id)")
            #expect(row?.balanceTransactions == payout.balanceTransactionIDs.count, "\(payout.id)")
        }
        #expect(report.payouts.contains { $0.reconciliationStatus == "in_progress" })
    }
}
