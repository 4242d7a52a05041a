import History
import ReconCore
import StripeAPI

/// What one automatic payout paid out (`/v1/balance_transactions?payout=po_…`, docs/EXTRACTION.md), paged in parallel
/// when it is long. A day's payout of a large platform sweeps tens of thousands of balance transactions; one cursor
/// pages them one round trip after another, at a tenth of what the endpoint allows. Stripe's list takes `created`
/// bounds with `payout`, so when more pages follow the first 25, the rest is read in `created` windows going back in
/// time from the last page read, as many at once as keep the endpoint at its rate (all of them from the start: after 25
/// full pages the payout is long), each sized by what the one before it held. A window that comes back empty, older
/// than every window that held something, ends a round of windows; the first page of everything older (normally
/// empty) then either ends the listing or starts the windows again from where the older transactions are, so a gap
/// costs a page, not a cursor through the rest. The payout counts as
/// listed only once all of it is stored: an interrupted run lists it again from the start (its pages are upserted,
/// never duplicated).
public struct PayoutListing: Sendable, Hashable {
    var payoutID: String
    /// Pages one cursor reads before the rest may be read in windows (default ``cursorPages``).
    var cursorPages = Self.cursorPages

    /// Pages a window is sized to hold by the density of the pages read: long enough that a window's last, part-empty
    /// page costs little, short enough that a day's payout fans out over every cursor the endpoint's rate allows.
    static let pagesPerWindow = 4.0

    /// Pages one cursor reads before the rest may be read in windows. Windows cost requests and round trips (each
    /// one's last page is part empty, one comes back empty, one last list follows), which a payout of a few dozen
    /// pages does not win back: on the benchmark's week and month-old day, whose payouts are up to about 20 pages,
    /// fanning out after the first page cost 41 requests more on the busiest endpoint and 1.2 s, after ten pages
    /// still 0.7 s on the month-old day. Twenty-five pages are under 4 s with one cursor; a payout of a thousand
    /// pages fans out after them.
    public static let cursorPages = 25

    func run(
        pager: ListPager, store: HistoryStore, dispatcher: ExtractionDispatcher<ExtractionWork>,
        _ context: ExtractionContext
    ) async throws {
        var cursor = stream()
        var newest: Int64?
        // One cursor, a page at a time, for the first ``cursorPages`` pages: most payouts end within them, and windows
        // would only cost them their part-empty pages. Then the rest is read in windows.
        while true {
            cursor.pageLimit = cursor.pages + 1
            let started = ContinuousClock.now
            cursor = try await pager.page(cursor, dispatcher: dispatcher, context)
            let roundTrip = ContinuousClock.now - started
            newest = newest ?? cursor.newestCreated
            guard cursor.hasMore, let oldest = cursor.oldestCreated, let top = newest else { break }
            // As many cursors as keep the endpoint at its rate, and one more: its rate limiter holds the excess, while
            // one too few leaves its slots idle.
            let wanted = min(
                ListPager.maximumStreams,
                Int((pager.client.endpointRate * min(roundTrip.inSeconds, 1)).rounded(.up)) + 1)
            guard cursor.pages >= cursorPages else { continue }
            // Everything created at or before the oldest second paged so far (its ties included: upserted).
            try await fanOut(
                before: oldest + 1, newest: top, listed: cursor.listed, cursors: wanted + 1, pager: pager,
                dispatcher: dispatcher, context)
            break
        }
        // Every page is stored: the payout's transactions count as listed in this run.
        try await store.gaps.recordPayoutListing(payoutID: payoutID, run: context.runID)
    }

    /// Reads everything created before `before` in windows (``windows(before:length:cursors:pager:dispatcher:_:)``),
    /// sized by the density of the pages read so far (`listed` objects created from `newest` down to `before`), then
    /// the first page of everything older than the windows: a payout's transactions come in clusters (its charges
    /// became available days after they were made, its transfers and fees the day before), so when that page shows
    /// more, the windows start again from it, sized by its own density, until nothing older is left.
    private func fanOut(
        before: Int64, newest: Int64, listed: Int, cursors: Int, pager: ListPager,
        dispatcher: ExtractionDispatcher<ExtractionWork>, _ context: ExtractionContext
    ) async throws {
        var before = before
        var perSecond = Double(listed) / Double(max(1, newest - before + 2))
        while true {
            let length = max(60, Int64((Self.pagesPerWindow * 100 / perSecond).rounded(.up)))
            let lowest = try await windows(
                before: before, length: length, cursors: cursors, pager: pager, dispatcher: dispatcher, context)
            var older = stream()
            older.window = 0..<lowest
            older.splits = false
            older.pageLimit = 1
            older = try await pager.page(older, dispatcher: dispatcher, context)
            guard older.hasMore, let oldest = older.oldestCreated, let top = older.newestCreated else { return }
            before = oldest + 1
            perSecond = Double(older.listed) / Double(max(1, top - oldest + 1))
        }
    }

    /// Pages `created` windows of `length` seconds going back from `before` (the oldest second paged so far, whose
    /// transactions the cursor held), `cursors` at a time, until a window older than every window that held something
    /// comes back empty; returns the lower bound of the oldest window read.
    private func windows(
        before: Int64, length initialLength: Int64, cursors: Int, pager: ListPager,
        dispatcher: ExtractionDispatcher<ExtractionWork>, _ context: ExtractionContext
    ) async throws -> Int64 {
        try await withThrowingTaskGroup(of: (window: Range<Int64>, listed: Int).self) { group in
            var next = before
            var length = initialLength
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
            // Every cursor at once: the windows start after ``cursorPages`` full pages, so the payout is long, and a
            // ramp would leave the endpoint's slots idle for its first round trips.
            for _ in 0..<cursors { launch() }
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
                // The windows still to come are sized by what this one held: a payout's older transactions thin out
                // (refunds and disputes of older charges that became available), and a window of the dense part's
                // length there would hold a few each, a request apiece.
                let expected = Self.pagesPerWindow * 100
                if done.listed > 0, Double(done.listed) < expected / 2 {
                    length = Int64(Double(length) * min(8, expected / Double(done.listed)))
                } else if Double(done.listed) > expected * 2 {
                    length = max(60, length / 2)
                }
                guard !ended else { continue }
                launch()
                if done.listed > 0 { launch() }
            }
            return next
        }
    }

    /// The payout's list, from its start, its pages ahead of the range's balance transactions list on the endpoint
    /// they share: that list's many windows would otherwise take most of the endpoint's slots while the payout's
    /// cursor waits for each one, and the run would end waiting for the payout's last pages, the range's lists done.
    /// Either way the endpoint runs at its rate; this way the payout is not the run's tail.
    private func stream() -> ListStream {
        var stream = ListStream(
            kind: .payoutTransactions, path: ListKind.balanceTransactions.pathForList,
            endpoint: ListKind.balanceTransactions.pathForList, filter: [("payout", payoutID)])
        stream.ahead = true
        return stream
    }
}
