import History
import ReconCore
import Testing

@testable import Extract

/// The planner decides what to fetch from what the history lacks (``RangeGaps``); the history only answers.
@Suite("Follow-up planning")
struct FollowUpPlannerTests {
    static let range: Range<Int64> = 1_000..<2_000

    static func planner() -> FollowUpPlanner {
        FollowUpPlanner(after: range.upperBound..<(range.upperBound + 86_400), rangeSeconds: 1_000)
    }

    static func keys(_ work: [ExtractionWork]) -> Set<String> { Set(work.map(\.key)) }

    @Test("while the lists page, the range's own balance transactions are left to its balance transactions list")
    func rangeTransactionsWaitForTheirList() async {
        var gaps = RangeGaps()
        gaps.balanceTransactionsOfRangeObjects = ["txn_range"]
        gaps.balanceTransactionsOfLaterObjects = ["txn_later"]

        // Dense lists: a window after the range would take many pages, so each is requested by id.
        let listed = ["balance_transactions": 100_000]
        let early = Self.keys(await Self.planner().work(for: gaps, listsPaging: true, listed: listed))
        let late = Self.keys(await Self.planner().work(for: gaps, listed: listed))

        #expect(early == ["get balance_transaction txn_later"])
        #expect(late == ["get balance_transaction txn_range", "get balance_transaction txn_later"])
    }

    @Test("won disputes with nothing repaid are searched once per connected account, from the range's end")
    func repaymentsAreSearchedPerAccountFromTheRangeEnd() async {
        var gaps = RangeGaps()
        gaps.unrepaidDisputes = [
            UnrepaidDispute(disputeID: "dp_2", destination: "acct_a"),
            UnrepaidDispute(disputeID: "dp_1", destination: "acct_a"),
            UnrepaidDispute(disputeID: "dp_3", destination: "acct_b"),
        ]
        let planner = Self.planner()

        let work = await planner.work(for: gaps, listed: [:])
        let again = await planner.work(for: gaps, listed: [:])

        #expect(
            Self.keys(work) == [
                #"repayments acct_a ["dp_1", "dp_2"] 2000"#, #"repayments acct_b ["dp_3"] 2000"#,
            ])
        #expect(again.isEmpty, "each follow-up is requested once per run")
    }

    static let window = "list transfers [] 2000..<88400"

    @Test("transfer groups are listed one by one while that is cheaper than the window after the range")
    func transferGroupsListedByGroup() async {
        var gaps = RangeGaps()
        gaps.transferGroupLists = ["order_1", "order_2"]
        // A day after a 1,000-second range with 1,000 transfers: the window would take hundreds of pages.
        let planner = Self.planner()

        let work = await planner.work(for: gaps, listed: ["transfers": 1_000])
        let again = await planner.work(for: gaps, listed: ["transfers": 1_000])

        #expect(
            Self.keys(work) == [
                #"list transfers ["transfer_group=order_1"] "#, #"list transfers ["transfer_group=order_2"] "#,
            ])
        #expect(again.isEmpty, "each group is listed once per run")
        #expect(await planner.transfersWindowRequested == false)
        // Each list brings the transfers' and their reversals' balance transactions in its page.
        guard case .list(let stream) = work.first else { return #expect(Bool(false)) }
        #expect(stream.window == nil)
        #expect(stream.expansions == ["data.balance_transaction", "data.reversals.data.balance_transaction"])
    }

    @Test("the window after the range replaces the groups' lists and the transfers by id when its pages are fewer")
    func transferGroupsByWindow() async {
        var gaps = RangeGaps()
        gaps.transfers = ["tr_1"]
        gaps.transferGroupLists = ["order_1"]
        // Sparse transfers: the window is one page, fewer than a retrieve and a group list.
        let planner = Self.planner()

        let work = await planner.work(for: gaps, listed: ["transfers": 1])
        #expect(Self.keys(work) == [Self.window])
        #expect(await planner.transfersWindowRequested)

        // A group found in a later round is in the window already: no list of its own; a transfer the window did
        // not hold is fetched by id.
        gaps.transferGroupLists = ["order_1", "order_3"]
        #expect(Self.keys(await planner.work(for: gaps, listed: ["transfers": 1])) == ["get transfer tr_1"])
    }

    @Test("without transfer groups the transfers are planned as before")
    func noGroupsNoLists() async {
        var gaps = RangeGaps()
        gaps.transfers = ["tr_1"]
        #expect(Self.keys(await Self.planner().work(for: gaps, listed: ["transfers": 1])) == ["get transfer tr_1"])
        gaps.transfers = ["tr_1", "tr_2"]
        #expect(Self.keys(await Self.planner().work(for: gaps, listed: ["transfers": 1])) == [Self.window])
        #expect(await Self.planner().work(for: RangeGaps(), listed: ["transfers": 1]).isEmpty)
    }

    @Test("the groups of older charges are listed whole, whatever the window, and without balance transactions")
    func olderGroupsAlwaysListed() async {
        var gaps = RangeGaps()
        gaps.transfers = ["tr_1", "tr_2"]
        gaps.transferGroupLists = ["order_new"]
        gaps.olderTransferGroupLists = ["order_old", "order_new"]
        let planner = Self.planner()

        let work = await planner.work(for: gaps, listed: ["transfers": 1])

        #expect(
            Self.keys(work) == [
                Self.window, #"list transfers ["transfer_group=order_old"] "#,
                #"list transfers ["transfer_group=order_new"] "#,
            ])
        let expansions = work.compactMap { item -> [String]? in
            guard case .list(let stream) = item, !stream.filter.isEmpty else { return nil }
            return stream.expansions
        }
        #expect(expansions == [[], ["data.balance_transaction", "data.reversals.data.balance_transaction"]])
    }
}
