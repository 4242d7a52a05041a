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
}
