import Foundation
import History
import ReconCore
import StripeAPI

/// Pages one list stream to its end: fetches its pages one after another with its cursor, writes each page to the
/// history while the next one is fetched, checkpoints a range window with its last page, and splits a dense window
/// into pieces that page at once (handed to the dispatcher's other workers).
struct ListPager: Sendable {
    let client: StripeClient
    let store: HistoryStore
    /// A window is split only while longer than this.
    let minimumSplitSeconds: Int64
    let progress: (any ExtractionProgress)?

    /// Pages one stream to its end (or to its ``ListStream/pageLimit``), splitting its window by density; returns
    /// the stream as it ended (what it listed, whether more follow, the creation times it met).
    @discardableResult
    func page(_ start: ListStream, dispatcher: ExtractionDispatcher<ExtractionWork>, _ context: ExtractionContext)
        async throws -> ListStream
    {
        var stream = start
        let path = stream.path ?? stream.kind.pathForList
        let endpoint = stream.endpoint ?? path
        await dispatcher.streamStarted(endpoint)
        do {
            try await pageToEnd(&stream, path: path, endpoint: endpoint, dispatcher: dispatcher, context)
            await dispatcher.streamEnded(endpoint)
        } catch {
            await dispatcher.streamEnded(endpoint)
            throw error
        }
        // When every list but the balance transactions has ended, plan the follow-ups while that one pages.
        if stream.isRange, await context.lists.ended(stream.kind) { await dispatcher.add(.planFollowUps) }
        // The payouts list is short and the lists of what each payout paid out are long: start them at once.
        if stream.isRange, stream.kind == .payouts, await context.lists.payoutListsDue() {
            await dispatcher.add(.planPayoutLists)
        }
        return stream
    }

    /// Pages `stream` to its end. Each page is written while the next one is fetched (the history has one writer,
    /// and a stream that waited for its writes would idle its cursor): the pages go in order to one child task that
    /// writes them, and the window's checkpoint goes with its last page. A write that fails fails the stream once its
    /// pages are fetched; a page that cannot be fetched fails it at once, abandoning the writes still queued.
    private func pageToEnd(
        _ stream: inout ListStream, path: String, endpoint: String, dispatcher: ExtractionDispatcher<ExtractionWork>,
        _ context: ExtractionContext
    ) async throws {
        let (pages, writes) = AsyncStream.makeStream(of: PageWrite.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await page in pages {
                    try Task.checkCancellation()
                    try await write(page, context)
                }
            }
            do {
                try await fetchToEnd(&stream, path: path, endpoint: endpoint, into: writes, dispatcher, context)
            } catch {
                // The pager's error is the stream's: the writes still queued are abandoned, as the run is failing.
                writes.finish()
                group.cancelAll()
                while await group.nextResult() != nil {}
                throw error
            }
            writes.finish()
            try await group.waitForAll()
        }
        if stream.kind == .transfers, stream.window == nil,
            let group = stream.filter.first(where: { $0.0 == "transfer_group" })?.1
        {
            // Every page is stored: the group's transfers made up to now count as listed in this run.
            try await store.gaps.recordTransferGroupListing(group, run: context.runID)
        }
    }

    /// A fetched page on its way to the history, with what its write records.
    private struct PageWrite: Sendable {
        var page: PageResult
        /// The window this page completes (the last page of a range window).
        var checkpoint: ExtractionWindow?
        /// The resource its objects count under in the tally.
        var resource: String
        var kind: ListKind
    }

    /// Fetches the pages of `stream` to its end, splitting its window by density, and hands each to `writes`.
    private func fetchToEnd(
        _ stream: inout ListStream, path: String, endpoint: String, into writes: AsyncStream<PageWrite>.Continuation,
        _ dispatcher: ExtractionDispatcher<ExtractionWork>, _ context: ExtractionContext
    ) async throws {
        var previousIDs = Set<String>()
        while true {
            var query: [(String, String)] = [("limit", "100")]
            if let window = stream.window {
                query += [("created[gte]", String(window.lowerBound)), ("created[lt]", String(window.upperBound))]
            }
            query += stream.filter
            if let cursor = stream.cursor { query.append(("starting_after", cursor)) }
            query += stream.expansions.map { ("expand[]", $0) }
            let started = ContinuousClock.now
            let page = try await stream.kind.fetchPage(
                client: client, path: path, endpoint: endpoint, query: query, precedence: stream.precedence)
            let roundTrip = ContinuousClock.now - started
            if let repeated = page.ids.first(where: { previousIDs.contains($0) || $0 == stream.cursor }) {
                throw StripeClientError.brokenPagination(
                    endpoint: endpoint, requestID: page.requestID,
                    detail: "the page after \(stream.cursor ?? "the start") repeated \(repeated): "
                        + "the cursor did not advance")
            }
            previousIDs = Set(page.ids)
            stream.listed += page.objects
            stream.pages += 1
            stream.hasMore = page.hasMore
            if stream.newestCreated == nil { stream.newestCreated = page.firstCreated }
            if let last = page.lastCreated { stream.oldestCreated = last }

            if page.hasMore, let lastCreated = page.lastCreated {
                try await split(
                    &stream, lastCreated: lastCreated, roundTrip: roundTrip, endpoint: endpoint,
                    dispatcher: dispatcher, context)
            }

            let finished = !page.hasMore || stream.pageLimit.map { stream.pages >= $0 } == true
            let checkpoint =
                finished && stream.isRange
                ? stream.window.map {
                    ExtractionWindow(resource: stream.kind.rawValue, from: $0.lowerBound, to: $0.upperBound)
                } : nil
            writes.yield(
                PageWrite(
                    page: page, checkpoint: checkpoint,
                    resource: stream.resource, kind: stream.kind))
            // A stream stopped at its page limit keeps its cursor, to go on from there.
            if page.hasMore { stream.cursor = page.lastID }
            if finished { return }
        }
    }

    /// Stores one page in one transaction, with its checkpoint, and counts it.
    private func write(_ write: PageWrite, _ context: ExtractionContext) async throws {
        let objects = write.page.objects
        let total = await context.tally.count(resource: write.resource, objects: objects)
        let outcome = try await store.objects.write(
            write.page.batch, run: context.runID, completing: write.checkpoint, windowObjects: objects,
            now: context.now)
        await context.tally.record(outcome, pages: 1)
        await progress?.pageStored(resource: write.kind.rawValue, objects: objects, total: total)
    }

    /// Pages a piece should be expected to hold, at least: a piece's last page is partly empty, so a piece of
    /// 0.85 pages mostly costs one request, and long lists are cut into pieces of many pages anyway (no more
    /// pieces than keep the endpoint at its rate).
    static let minimumPagesPerPiece = 0.85
    /// Cursors of one endpoint worth keeping in flight, at most.
    static let maximumStreams = 16
    /// Pages a piece of a list known to be dense should be expected to hold, at least: each piece ends in a partly
    /// empty page, which the round trips it saves must pay for. It holds for the pieces split off as a list pages,
    /// for those of the list that decides the run's length cut before its first page, and for a repayment search's
    /// transfers (``RepaymentSearch``).
    static let piecePages = 3.0
    /// Pages a piece of a list beside the one that decides the run's length, cut before its first page, should be
    /// expected to hold, at least: its partly empty pages take no slot the run waits for
    /// (``Extractor/pieces(_:density:endpointRate:decidesLength:)``).
    static let firstPiecePagesBeside = 1.5

    /// Pages a piece cut before its list's first page should be expected to hold, at least, for the list that
    /// decides the run's length or for one beside it.
    static func firstPiecePages(decidesLength: Bool) -> Double {
        decidesLength ? piecePages : firstPiecePagesBeside
    }
    /// Stripe's usual round trip, seconds, for the cuts made before any was measured.
    static let usualRoundTrip = 0.15

    /// Cursors of one endpoint that keep it at `endpointRate` over a round trip of `roundTrip` seconds (capped at
    /// one): as many as the rate sends in a round trip, and one more waiting, so that a late answer leaves no slot
    /// empty.
    static func streamsWanted(endpointRate: Double, roundTrip: Double) -> Int {
        min(maximumStreams, Int((endpointRate * min(roundTrip, 1)).rounded(.up)) + 1)
    }

    /// Cuts the rest of a dense window into pieces that page at once: as many as keep the endpoint at its rate
    /// (its rate × the round trip, counting the cursors already in flight), each expected to hold at least
    /// ``minimumPagesPerPiece`` pages by the density seen so far, and no more than there are idle workers.
    /// The stream keeps the newest piece and goes on with its cursor; the older pieces start from their start.
    private func split(
        _ stream: inout ListStream, lastCreated: Int64, roundTrip: Duration, endpoint: String,
        dispatcher: ExtractionDispatcher<ExtractionWork>, _ context: ExtractionContext
    ) async throws {
        guard stream.splits, let window = stream.window,
            lastCreated - window.lowerBound >= 2 * minimumSplitSeconds
        else {
            return
        }
        let remainingPages = stream.remainingPages ?? 0
        let seconds = roundTrip.inSeconds
        let wanted = Self.streamsWanted(endpointRate: client.endpointRate, roundTrip: seconds)
        let inFlight = await dispatcher.streams(endpoint)
        let idle = await dispatcher.idleWorkers
        // This stream's piece counts as one of the pieces; the remaining pages, not counting its next one.
        let pieces = min(
            Int(remainingPages / stream.minimumPagesPerPiece), wanted - inFlight + 1, idle + 1,
            Int((lastCreated - window.lowerBound) / minimumSplitSeconds))
        guard pieces >= 2 else { return }
        let span = lastCreated - window.lowerBound
        var bounds = (0...pieces).map { window.lowerBound + span * Int64($0) / Int64(pieces) }
        bounds[pieces] = lastCreated
        for index in 0..<(pieces - 1) {
            var piece = stream.piece(bounds[index]..<bounds[index + 1])
            piece.density = stream.pagedDensity
            if stream.isRange { await context.lists.started(stream.kind) }
            await dispatcher.add(.list(piece))
        }
        stream.window = bounds[pieces - 1]..<window.upperBound
        stream.minimumPagesPerPiece = max(stream.minimumPagesPerPiece, Self.piecePages)
    }
}
