import Extract
import ExtractionTestSupport
import Foundation
import History
import ReconCore
import Sandbox
import StripeAPI
import TestSupport
import Testing

private typealias H = ExtractionHarness

/// A payout's `?payout=` list, read in parallel `created` windows once its first page shows it is long (issue 29).
@Suite struct PayoutListingTests {
    /// The ids `?payout=` lists for `payout`, paged with one cursor: the oracle.
    static func sequential(_ client: StripeClient, payout: String) async throws -> Set<String> {
        var ids = Set<String>()
        var cursor: String?
        while true {
            var query = [("limit", "100"), ("payout", payout)]
            if let cursor { query.append(("starting_after", cursor)) }
            let page = try await client.listPage(
                BalanceTransaction.self, path: "/v1/balance_transactions", query: query)
            ids.formUnion(page.items.map(\.object.id))
            guard page.hasMore, let last = page.items.last?.object.id else { return ids }
            cursor = last
        }
    }

    /// Days 3 and 4 of a 6-day world of 4,000 charges, dense enough that a day's payout pays out several pages,
    /// extracted through a transport that records every request; windows after `payoutCursorPages` pages.
    private func extractDaysThreeAndFour(
        payoutCursorPages: Int
    ) async throws -> (harness: H, store: HistoryStore, recorder: RecordingTransport, runID: Int64) {
        let harness = try await H {
            $0.charges = 4_000
            $0.days = 6
        }
        let store = try harness.store()
        let recorder = RecordingTransport(try H.curl())
        let (runID, _) = try await harness.extract(
            store: store, client: try harness.client(transport: recorder), from: Self.from, to: Self.to,
            payoutCursorPages: payoutCursorPages)
        return (harness, store, recorder, runID)
    }

    static let from = H.start + 3 * H.day
    static let to = H.start + 5 * H.day

    @Test("a long payout is read in created windows at once and holds exactly what one cursor lists")
    func longPayoutInWindows() async throws {
        // Given days 3 and 4 extracted with windows after one cursor's first page (the product reads 25 pages
        // first, which this world's payouts do not have)
        let (harness, store, recorder, runID) = try await extractDaysThreeAndFour(payoutCursorPages: 1)
        let (from, to) = (Self.from, Self.to)

        // Then every completed payout of the range holds exactly the transactions one cursor lists
        let input = try store.parts.whole(from: from, to: to, asOf: to + 30 * H.day, skippedTransferGrace: 3_600)
        let payouts = input.payouts.filter(\.isReconciled)
        #expect(!payouts.isEmpty)
        let client = try harness.client()
        var longest = 0
        for payout in payouts {
            let expected = try await Self.sequential(client, payout: payout.id)
            let stored = Set(input.payoutTransactions.filter { $0.payoutID == payout.id }.map(\.balanceTransactionID))
            #expect(stored == expected, "\(payout.id)")
            longest = max(longest, expected.count)
        }
        #expect(longest > 300, "a payout of several pages")
        // And the long ones were read in created windows after their first page, and the payouts count as listed
        let windows = recorder.queries(containing: "payout=").filter { $0.contains("created[lt]") }
        #expect(windows.count >= 3)
        #expect(try await store.gaps.unlistedPayouts(from: from, to: to, chain: [runID]).isEmpty)
        print("payout listing: the longest payout \(longest) transactions, \(windows.count) window requests")
        try await harness.close()
    }

    @Test("a payout of fewer pages than the cursor reads first costs its pages, as with one cursor")
    func shortPayoutOnePage() async throws {
        // Given the same days, whose payouts are a few pages each, with the product's 25 pages read first
        let (harness, _, recorder, _) = try await extractDaysThreeAndFour(payoutCursorPages: PayoutListing.cursorPages)
        // Then each is paged with its cursor alone: no window, as many requests as pages
        let payoutRequests = recorder.queries(containing: "payout=")
        #expect(payoutRequests.contains { $0.contains("starting_after") })
        #expect(payoutRequests.allSatisfy { !$0.contains("created[") })
        try await harness.close()
    }
}
