import History
import ReconCore
import StripeAPI

/// What one automatic payout paid out (`/v1/balance_transactions?payout=po_…`, SPEC §3), paged in parallel when it
/// is long. A day's payout of a large platform sweeps tens of thousands of balance transactions; one cursor pages
/// them one round trip after another, at a tenth of what the endpoint allows. Stripe's list takes `created` bounds
/// with `payout`, so once the first page shows that more follow, the rest is read in `created` windows going back
/// in time from that page, as many at once as keep the endpoint at its rate, each window sized by the density the
/// first page showed. A window that comes back empty, older than every window that held something, ends the fan
/// out; one last list of everything older (normally a single empty page) makes the listing complete whatever gaps
/// the payout's transactions have. The payout counts as listed only once every window and that last list are
/// stored: an interrupted run lists it again from the start (its pages are upserted, never duplicated).
struct PayoutListing: Sendable, Hashable {
    var payoutID: String

    /// Pages a window is sized to hold by the first page's density: long enough that a window's last, part-empty
    /// page costs little, short enough that a day's payout fans out over every cursor the endpoint's rate allows.
    static let pagesPerWindow = 4.0

    func run(
        pager: ListPager, store: HistoryStore, dispatcher: ExtractionDispatcher<ExtractionWork>,
        _ context: ExtractionContext
    ) async throws {
        var first = stream()
        first.pageLimit = 1
        let started = ContinuousClock.now
        let head = try await pager.page(first, dispatcher: dispatcher, context)
        let roundTrip = ContinuousClock.now - started
        if head.hasMore, let newest = head.newestCreated, let oldest = head.oldestCreated {
            // Everything created at or before the first page's oldest second (its ties included: they are upserted).
            let rest = oldest + 1
            let perSecond = Double(head.listed) / Double(max(1, newest - oldest + 1))
            let length = max(60, Int64((Self.pagesPerWindow * 100 / perSecond).rounded(.up)))
            let cursors = max(
                2,
                min(
                    ListPager.maximumStreams,
                    Int((pager.client.endpointRate * min(roundTrip.inSeconds, 1)).rounded(.up)) + 1))
            let lowest = try await fanOut(
                before: rest, length: length, cursors: cursors, pager: pager, dispatcher: dispatcher, context)
            // Whatever is older than the windows read (nothing, unless the payout's transactions have a gap longer
            // than a window): one cursor to the end.
            var tail = stream()
            tail.window = 0..<lowest
            tail.splits = false
            try await pager.page(tail, dispatcher: dispatcher, context)
        }
        // Every page is stored: the payout's transactions count as listed in this run.
        try await store.gaps.recordPayoutListing(payoutID: payoutID, run: context.runID)
    }

    /// Pages `created` windows of `length` seconds going back from `before` (the first page's oldest second, whose
    /// transactions it held), `cursors` at a time, until a window older than every window that held something comes
    /// back empty; returns the lower bound of the oldest window read.
    private func fanOut(
        before: Int64, length: Int64, cursors: Int, pager: ListPager,
        dispatcher: ExtractionDispatcher<ExtractionWork>, _ context: ExtractionContext
    ) async throws -> Int64 {
        try await withThrowingTaskGroup(of: (window: Range<Int64>, listed: Int).self) { group in
            var next = before
            // The first page held the transactions just newer than `before`.
            var oldestHolding = before
            var oldestEmpty = Int64.max
            var ended = false
            var inFlight = 0
            func launch() {
                guard next > 0, inFlight < cursors else { return }
                let window = max(0, next - length)..<next
                next = window.lowerBound
                inFlight += 1
                var piece = stream()
                piece.window = window
                piece.splits = false
                group.addTask { (window, try await pager.page(piece, dispatcher: dispatcher, context).listed) }
            }
            // Two windows first, two more for each that held something, up to `cursors` at once: a payout of a few
            // pages costs a window or two beyond them, a long one soon has every cursor busy.
            launch()
            launch()
            while let done = try await group.next() {
                inFlight -= 1
                if done.listed > 0 {
                    oldestHolding = min(oldestHolding, done.window.lowerBound)
                } else {
                    oldestEmpty = min(oldestEmpty, done.window.lowerBound)
                }
                // An empty window older than every window that held something: the payout's oldest transaction is
                // behind (or a gap longer than a window is, which the last list reads).
                ended = ended || oldestEmpty < oldestHolding
                guard !ended else { continue }
                launch()
                if done.listed > 0 { launch() }
            }
            return next
        }
    }

    /// The payout's list, from its start.
    private func stream() -> ListStream {
        ListStream(
            kind: .payoutTransactions, path: ListKind.balanceTransactions.pathForList,
            endpoint: ListKind.balanceTransactions.pathForList, filter: [("payout", payoutID)])
    }
}
