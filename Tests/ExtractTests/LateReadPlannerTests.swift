import History
import ReconCore
import Testing

@testable import Extract

/// The look-back's reads (docs/EXTRACTION.md, "Late outcomes"), the cheaper way per kind: by id where the objects to
/// read again are fewer than the pages of a `created` window from the oldest of them, that window of the list
/// otherwise.
@Suite("Late-read planning")
struct LateReadPlannerTests {
    static let from: Int64 = 10_000

    static func plan(_ kind: LateOutcomeKind, ids: Int, listed: Int) -> LateReadPlan {
        var plan = LateReadPlan()
        plan.objects[kind] = (0..<ids).map { LateRead(id: "\(kind.rawValue)_\($0)", created: 1_000 + Int64($0)) }
        plan.listed[kind] = listed
        return plan
    }

    @Test func afewPendingChargesAreReadByIdWithTheirLateReadExpansions() {
        // Given 3 pending charges in a window of 500 charges (5 pages)
        let work = LateReadPlanner.work(for: Self.plan(.charge, ids: 3, listed: 500), windowEnd: Self.from)
        // Then 3 requests by id, each expanding what the rules read once the charge settled
        #expect(
            work.map(\.key) == [
                "read again charge charge_0", "read again charge charge_1", "read again charge charge_2",
            ])
        #expect(ObjectKind.charge.entry.lateReadExpansions.contains("transfer.balance_transaction"))
    }

    @Test func manyPendingChargesAreReadWithOneWindowOfTheList() throws {
        // Given 50 pending charges in a window of 500 charges: 5 pages beat 50 requests
        let work = LateReadPlanner.work(for: Self.plan(.charge, ids: 50, listed: 500), windowEnd: Self.from)
        #expect(work.count == 1)
        guard case .list(let stream) = try #require(work.first) else {
            Issue.record("expected a list, got \(work)")
            return
        }
        // Then the window runs from the oldest of them to the range's start, with the range list's expansions
        #expect(stream.kind == .charges)
        #expect(stream.window == 1_000..<Self.from)
        #expect(stream.expansions == ListKind.charges.rangeExpansions)
        #expect(stream.isLateRead && !stream.isRange)
    }

    @Test func asManyObjectsAsPagesAreReadById() {
        // Given 5 open disputes in a window of 401-500 disputes (5 pages): a tie goes to the requests by id
        let work = LateReadPlanner.work(for: Self.plan(.dispute, ids: 5, listed: 401), windowEnd: Self.from)
        #expect(work.count == 5)
    }

    @Test func nothingToReadAgainCostsNothing() {
        #expect(LateReadPlanner.work(for: LateReadPlan(), windowEnd: Self.from).isEmpty)
    }
}
