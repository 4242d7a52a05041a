import History
import ReconCore

/// Turns what the history lacks of a range (``RangeGaps``) into requests, the cheaper way for each kind
/// (docs/EXTRACTION.md):
///
/// - where the needed objects are created after the range (refunds and disputes made since, transfers of charges
///   that settled since, their balance transactions), one window `[to, now]` of the list that holds them costs
///   its pages, estimated from the density the range's own lists showed; requests by id (or lists by charge)
///   cost one each. The cheaper one is taken: a window on a nightly run, where "after the range" is a few hours
///   of dense objects; requests by id on a rerun of an old range, where it is weeks of objects of which a few are
///   needed.
/// - a transfer group's transfers (docs/RULES.md, "Separately transferred charges") are made hours or days after its
///   charge: one `/v1/transfers?transfer_group=` list per group of the range's separately transferred charges, or
///   the window `[to, now]` of `/v1/transfers` when its pages are fewer (it also holds the transfers the range's
///   charges name). The groups of the older charges of the range's refunds and disputes are listed whole, one list
///   each. Destination charges have no group, so a platform without separate charges pays nothing.
/// - charges, PaymentIntents, reversals and fee refunds beyond the 10 embedded, repayment searches and the
///   balance transactions of the range's payouts (`?payout=`) have no window that holds them and are requested
///   as before.
///
/// Every request is made once per run: what a window did not bring is fetched by id in the next round.
actor FollowUpPlanner {
    /// `[to, now]`: where objects made after the range are.
    let after: Range<Int64>
    /// The range's length, to turn the objects its lists held into a density.
    let rangeSeconds: Int64
    private var requested = Set<String>()
    /// Requests planned so far, and the rounds they were planned in.
    private(set) var planned = 0
    private(set) var rounds = 0

    /// Pages one cursor reads of a payout's list before the rest may be read in windows.
    let payoutCursorPages: Int

    init(after: Range<Int64>, rangeSeconds: Int64, payoutCursorPages: Int = PayoutListing.cursorPages) {
        self.after = after
        self.rangeSeconds = rangeSeconds
        self.payoutCursorPages = payoutCursorPages
    }

    /// Counts a round planned while the lists still page.
    func countRound() { rounds += 1 }

    /// The requests for `gaps` not made yet in this run; `listed` are the objects the range's lists held so far,
    /// by list (`charges`, …). While the range's balance transactions list still pages (`listsPaging`), the balance
    /// transactions of the range's own objects are left to it.
    func work(for gaps: RangeGaps, listsPaging: Bool = false, listed: [String: Int]) -> [ExtractionWork] {
        let needs = gaps
        var work: [ExtractionWork] = []
        work += needs.charges.map { .retrieve(kind: .charge, id: $0) }
        work += needs.paymentIntents.map { .retrieve(kind: .paymentIntent, id: $0) }
        work += transfers(needs.transfers, groups: needs.transferGroupLists, listed: listed)
        // The older charges' groups: all their transfers, most made before the range, which no window holds.
        let later = Set(needs.transferGroupLists)
        work += needs.olderTransferGroupLists.map { Self.transferGroupList($0, expanded: later.contains($0)) }
        work += cheaper(needs.applicationFees, window: .applicationFees, listed: listed) {
            .retrieve(kind: .applicationFee, id: $0)
        }
        let transactions =
            listsPaging
            ? needs.balanceTransactionsOfLaterObjects
            : needs.balanceTransactionsOfRangeObjects + needs.balanceTransactionsOfLaterObjects
        work += cheaper(transactions, window: .balanceTransactions, listed: listed) {
            .retrieve(kind: .balanceTransaction, id: $0)
        }
        work += needs.balanceTransactionsOfLateOutcomes.map { .retrieve(kind: .balanceTransaction, id: $0) }
        work += needs.reversalTransactions.map { .reversalOfTransaction(id: $0) }
        work += needs.collectionTransactions.map { .collectionOfTransaction(id: $0) }
        work += needs.debitSourceTransfers.map { .sourceTransferOfDebit(id: $0) }
        work += needs.transferReversalLists.map {
            .list(
                .init(
                    kind: .transferReversals, path: "/v1/transfers/\($0)/reversals",
                    endpoint: "/v1/transfers/{id}/reversals"))
        }
        work += needs.feeRefundLists.map {
            .list(
                .init(
                    kind: .feeRefunds, path: "/v1/application_fees/\($0)/refunds",
                    endpoint: "/v1/application_fees/{id}/refunds"))
        }
        work += needs.payoutTransactionLists.map {
            .payoutTransactions(PayoutListing(payoutID: $0, cursorPages: payoutCursorPages))
        }
        work += cheaper(needs.chargeRefundLists, window: .refunds, listed: listed) {
            .list(.init(kind: .refunds, filter: [("charge", $0)]))
        }
        work += cheaper(needs.chargeDisputeLists, window: .disputes, listed: listed) {
            .list(.init(kind: .disputes, filter: [("charge", $0)]))
        }
        // One search per connected account, from the range's end (its own transfers were listed).
        for (destination, disputes) in Dictionary(grouping: needs.unrepaidDisputes, by: \.destination)
            .sorted(by: { $0.key < $1.key })
        {
            work.append(
                .repaymentSearch(
                    RepaymentSearch(
                        destination: destination, disputeIDs: disputes.map(\.disputeID).sorted(),
                        since: after.lowerBound)))
        }
        let new = work.filter { !requested.contains($0.key) }
        requested.formUnion(new.map(\.key))
        planned += new.count
        return new
    }

    /// Whether this run has requested the window `[to, now]` of `/v1/transfers`, which holds every transfer group's
    /// transfers made after the range (the extractor records it as listed once the work it was planned with has
    /// run).
    var transfersWindowRequested: Bool { requested.contains(Self.transfersWindow(after).key) }

    /// `GET /v1/transfers?transfer_group=…`: every transfer of a group, whenever made (a page, as a group holds a
    /// few); `expanded`, with the balance transactions of the transfers and of their reversals, which the platform
    /// net of a group of the range reads.
    static func transferGroupList(_ group: String, expanded: Bool = true) -> ExtractionWork {
        var stream = ListStream(kind: .transfers, filter: [("transfer_group", group)])
        if expanded { stream.expansions = laterTransferExpansions }
        return .list(stream)
    }

    /// The window `[to, now]` of `/v1/transfers`, with the balance transactions of the transfers and of their
    /// reversals: they were made after the range, so the range's balance transactions list does not hold them, and
    /// each would cost a request by id (a week's window of a platform whose charges are a fifth transfer groups
    /// took 269 of them).
    private static func transfersWindow(_ after: Range<Int64>) -> ExtractionWork {
        var stream = ListStream(kind: .transfers, window: after)
        stream.expansions = laterTransferExpansions
        return .list(stream)
    }

    /// What a list of transfers made after the range expands: their balance transactions and their reversals'.
    private static let laterTransferExpansions = [
        "data.balance_transaction", "data.reversals.data.balance_transaction",
    ]

    /// The transfers the range's charges name and the transfer groups' lists, or the window `[to, now]` of
    /// `/v1/transfers` when its pages are fewer than those requests together: it holds both, and the later
    /// transfers of groups tied by `source_transaction` alone, which no filter lists (Stripe lists transfers by
    /// `transfer_group`, not by `source_transaction`). A group whose list was requested is not counted again; none
    /// is once the window was requested.
    private func transfers(_ ids: [String], groups: [String], listed: [String: Int]) -> [ExtractionWork] {
        let window = Self.transfersWindow(after)
        let windowRequested = requested.contains(window.key)
        let groupLists =
            windowRequested ? [] : groups.map { Self.transferGroupList($0) }.filter { !requested.contains($0.key) }
        guard !ids.isEmpty || !groupLists.isEmpty else { return [] }
        if !windowRequested, windowPages(.transfers, listed: listed) < ids.count + groupLists.count { return [window] }
        return ids.map { .retrieve(kind: .transfer, id: $0) } + groupLists
    }

    /// Pages a window `[to, now]` of `kind` is expected to take, from the density of the range's lists.
    func windowPages(_ kind: ListKind, listed: [String: Int]) -> Int {
        var objects = Double(listed[kind.rawValue] ?? 0)
        if kind == .balanceTransactions {
            // Its list may still be paging: every other object has a balance transaction, so count at least those.
            let others: [ListKind] = [.charges, .transfers, .applicationFees, .refunds, .disputes]
            objects = max(objects, others.reduce(0) { $0 + Double(listed[$1.rawValue] ?? 0) })
        }
        let perSecond = objects / Double(rangeSeconds)
        return max(1, Int((perSecond * Double(after.count) / 100).rounded(.up)))
    }

    /// One request per id with `make`, or the window of `kind` after the range when its pages are fewer.
    private func cheaper(
        _ ids: [String], window kind: ListKind, listed: [String: Int], _ make: (String) -> ExtractionWork
    ) -> [ExtractionWork] {
        guard !ids.isEmpty else { return [] }
        let window = ExtractionWork.list(.init(kind: kind, window: after))
        if !requested.contains(window.key), windowPages(kind, listed: listed) < ids.count { return [window] }
        return ids.map(make)
    }
}
