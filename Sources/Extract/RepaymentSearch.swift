import History

/// The search for the transfers that pay won disputes' recovered funds back to a connected account. Stripe links
/// them to nothing (the platform tags them `metadata[dispute_id]`), so the account's transfers since the dispute
/// are read; one search serves every dispute of the account.
struct RepaymentSearch: Sendable, Hashable {
    var destination: String
    var disputeIDs: [String]
    /// Unix seconds: the earliest moment a repayment can have been made that the range's lists did not bring.
    var since: Int64

    /// Pages the account's transfers from `since`, the oldest day or so first, and stops there when it holds every
    /// dispute's repayment: a repayment follows its dispute by days, while paging from now backwards would read
    /// every transfer made since. The first window is sized to about one page by the account's transfers in the
    /// range. When it does not hold every repayment, the rest up to now is one list, split by density like the
    /// range's lists (an account never repaid has to be read to now anyway, and reading it in parallel keeps the
    /// search off the extraction's critical path).
    func run(
        pager: ListPager, store: HistoryStore, dispatcher: ExtractionDispatcher<ExtractionWork>,
        _ context: ExtractionContext
    ) async throws {
        let end = max(since, context.now) + 1
        let transfers = try await store.gaps.transferCount(destination: destination, from: context.from, to: context.to)
        let perSecond = Double(transfers) / Double(max(1, context.to - context.from))
        let length = perSecond > 0 ? Int64(80 / perSecond) : end - since
        let firstEnd = min(end, since + max(length, 3_600))
        let waiting = Set(disputeIDs).subtracting(try await store.gaps.repaidDisputes(disputeIDs))
        if !waiting.isEmpty {
            try await pageTransfers(
                in: since..<firstEnd, splits: false, pager: pager, dispatcher: dispatcher, context)
            let stillWaiting = waiting.subtracting(try await store.gaps.repaidDisputes(Array(waiting)))
            if !stillWaiting.isEmpty, firstEnd < end {
                try await pageTransfers(
                    in: firstEnd..<end, splits: true, pager: pager, dispatcher: dispatcher, context)
            }
        }
        for disputeID in disputeIDs {
            try await store.gaps.recordRepaymentSearch(disputeID: disputeID, run: context.runID)
        }
    }

    private func pageTransfers(
        in window: Range<Int64>, splits: Bool, pager: ListPager, dispatcher: ExtractionDispatcher<ExtractionWork>,
        _ context: ExtractionContext
    ) async throws {
        var stream = ListStream(kind: .transfers, window: window, filter: [("destination", destination)])
        stream.splits = splits
        // Most searched accounts were not repaid and are read to now: pieces of a few pages keep the requests down.
        stream.minimumPagesPerPiece = ListPager.piecePages
        try await pager.page(stream, dispatcher: dispatcher, context)
    }
}
