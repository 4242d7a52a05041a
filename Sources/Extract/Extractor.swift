import Foundation
import History
import Logging
import ReconCore
import StripeAPI

/// Fetches everything a range needs into the history (SPEC §3), with as few requests as Stripe allows and as
/// fast as the rate budget allows.
///
/// 1. The range's lists (charges, transfers, application fees, balance transactions, disputes, refunds, payouts) are
///    paged over time windows by `concurrency` workers at once, each with the expansions that carry what the
///    rules read about objects outside the range (``ListKind/rangeExpansions``). A window is split by its
///    density: after a page, the rest of the window is cut into as many pieces as keep the endpoint at its rate
///    (rate × round trip cursors), each worth a few pages, so a quiet night costs a request per list and a busy
///    one fans out without paying for many half-empty pages. Each finished window is checkpointed in the same
///    transaction as its last page, so an interrupted run's successor skips it.
/// 2. Follow-ups: what the range refers to that the lists did not bring, asked of the history
///    (``HistoryStore/followUpNeeds(from:to:chain:deferringRangeTransactions:)``). They are planned as soon as
///    every list but the balance transactions (the longest) has ended, and run while it still pages; rounds after
///    that take what is left. Each need is fetched the cheaper way (``FollowUpPlan``): a window after the range
///    of a list where such objects are dense, requests by id or by charge where they are sparse. Each is
///    requested once per run; a 404 is recorded for the reconciler, not a crash. The balance transactions each
///    automatic payout of the range paid out are one such need: `?payout=` is paged once per payout per run.
public struct Extractor: Sendable {
    public struct Options: Sendable {
        /// Workers: requests in flight at once.
        public var concurrency: Int
        /// The range is never extracted closer to `now` than this.
        public var settleMargin: Int64
        /// Initial window length. Windows start long (few requests on a quiet account) and are split by density
        /// (many streams in flight on a busy one); each finished window is a checkpoint.
        public var windowSeconds: Int64
        /// A window is split only while longer than this.
        public var minimumSplitSeconds: Int64

        public init(
            concurrency: Int, settleMargin: Int64, windowSeconds: Int64 = 7 * 86_400, minimumSplitSeconds: Int64 = 2
        ) {
            self.concurrency = max(1, concurrency)
            self.settleMargin = settleMargin
            self.windowSeconds = max(1, windowSeconds)
            self.minimumSplitSeconds = max(2, minimumSplitSeconds)
        }
    }

    let client: StripeClient
    let store: HistoryStore
    let options: Options
    let logger: Logger
    let progress: (any ExtractionProgress)?

    public init(
        client: StripeClient, store: HistoryStore, options: Options, logger: Logger,
        progress: (any ExtractionProgress)? = nil
    ) {
        self.client = client
        self.store = store
        self.options = options
        self.logger = logger
        self.progress = progress
    }

    /// What every worker of one extraction shares.
    struct Context: Sendable {
        var from: Int64
        var to: Int64
        var runID: Int64
        var now: Int64
        var chain: [Int64]
        var tally: Tally
        var lists: RangeLists
        var planner: FollowUpPlanner
    }

    /// Extracts `[from, to)` (Unix seconds) for run `runID`, skipping windows the run already has finished.
    public func extract(from: Int64, to requestedTo: Int64, runID: Int64, now: Int64) async throws -> ExtractionSummary {
        var summary = ExtractionSummary()
        let latest = now - options.settleMargin
        var to = requestedTo
        if to > latest {
            guard from < latest else {
                throw ExtractionError.rangeTooRecent(
                    to: RFC3339.string(unixSeconds: requestedTo, in: TimeZone(secondsFromGMT: 0) ?? .current),
                    margin: Int(options.settleMargin))
            }
            to = latest
            summary.clampedTo = latest
            logger.warning(
                "range end moved back: Stripe may not show the newest objects yet; re-run the range later for the rest",
                metadata: ["requested_to": "\(requestedTo)", "to": "\(latest)"])
        }

        let done = try store.completedWindows(run: runID)
        var windowsByKind: [[Work]] = []
        var streams: [ListKind: Int] = [:]
        for kind in ListKind.rangeLists {
            let finished = done.filter { $0.resource == kind.rawValue }.map { $0.from..<$0.to }
            let remaining = Intervals.subtract(finished, from: from..<to)
            summary.resumedWindows += finished.count
            let windows = remaining.flatMap { Intervals.split($0, length: options.windowSeconds) }
            streams[kind] = windows.count
            windowsByKind.append(windows.map { .list(ListStream(range: kind, window: $0)) })
        }
        let context = Context(
            from: from, to: to, runID: runID, now: now, chain: try store.runChain(runID), tally: Tally(),
            lists: RangeLists(streams: streams),
            planner: FollowUpPlanner(after: to..<max(to, now) + 1, rangeSeconds: max(1, to - from)))
        // The balance transactions list is the longest (a transaction for every charge, refund, transfer, fee…), so
        // its rate limit decides the extraction's length: it keeps its rate while the others share the rest.
        await client.prioritize(endpoint: ListKind.balanceTransactions.pathForList)
        // Interleaved across kinds, so every endpoint has cursors in flight from the first second.
        var work: [Work] = []
        for index in 0..<(windowsByKind.map(\.count).max() ?? 0) {
            for windows in windowsByKind where index < windows.count { work.append(windows[index]) }
        }
        if await context.lists.othersEnded() { work.append(.planFollowUps) }
        if await context.lists.payoutListsDue() { work.append(.planPayoutLists) }
        try await run(work, context)

        // Follow-ups until the history holds everything the range refers to.
        var round = await context.planner.rounds
        while true {
            let needs = try await store.followUpNeeds(from: from, to: to, chain: context.chain)
            let items = await context.planner.work(for: needs, listed: await context.tally.snapshot.objects)
            if items.isEmpty { break }
            round += 1
            guard round <= 8 else { throw ExtractionError.followUpsDidNotSettle(rounds: round - 1, remaining: items.count) }
            await progress?.followUpsPlanned(round: round, count: items.count)
            logger.info("follow-ups", metadata: ["round": "\(round)", "requests": "\(items.count)"])
            try await run(items, context)
        }
        summary.followUpRounds = round
        summary.followUps = await context.planner.planned
        let totals = await context.tally.snapshot
        summary.objectsByResource = totals.objects
        summary.new = totals.outcome.new
        summary.updated = totals.outcome.updated
        summary.unchanged = totals.outcome.unchanged
        summary.pages = totals.pages
        summary.missing = totals.missing
        return summary
    }

    /// Plans the lists of what each payout of the range paid out (`?payout=`), as soon as the payouts list has
    /// ended: they are as long as a day's balance transactions each, so they start long before the other follow-ups.
    private func planPayoutLists(queue: WorkQueue<Work>, _ context: Context) async throws {
        let needs = try await store.followUpNeeds(
            from: context.from, to: context.to, chain: context.chain, deferringRangeTransactions: true)
        var payoutLists = FollowUpNeeds()
        payoutLists.payoutTransactionLists = needs.payoutTransactionLists
        let items = await context.planner.work(for: payoutLists, listed: await context.tally.snapshot.objects)
        for item in items { await queue.add(item) }
    }

    /// Plans the follow-ups while the balance transactions list still pages: everything but the balance
    /// transactions of the range's own objects, which that list brings.
    private func planEarly(queue: WorkQueue<Work>, _ context: Context) async throws {
        let needs = try await store.followUpNeeds(
            from: context.from, to: context.to, chain: context.chain, deferringRangeTransactions: true)
        let items = await context.planner.work(for: needs, listed: await context.tally.snapshot.objects)
        guard !items.isEmpty else { return }
        await context.planner.countRound()
        await progress?.followUpsPlanned(round: 1, count: items.count)
        logger.info("follow-ups while the lists page", metadata: ["requests": "\(items.count)"])
        for item in items { await queue.add(item) }
    }

    // MARK: - Work

    /// A list paged with a cursor, over a time window (range lists, follow-up windows) or unbounded (lists by
    /// parent or by charge).
    struct ListStream: Sendable {
        var kind: ListKind
        var window: Range<Int64>?
        var cursor: String?
        /// For follow-up lists: the path (`/v1/transfers/tr_1/reversals`), endpoint and extra filter.
        var path: String?
        var endpoint: String?
        var filter: [(String, String)] = []
        /// `expand[]` of every page.
        var expansions: [String] = []
        /// One of the range's lists: its windows are checkpointed and counted in ``RangeLists``.
        var isRange = false
        /// Items paged so far, with the window's upper bound: the stream's density.
        var listed = 0
        /// Whether a dense window may be split, and the pages a piece should be expected to hold at least.
        var splits = true
        var minimumPagesPerPiece = Extractor.minimumPagesPerPiece

        /// A window of one of the range's lists.
        init(range kind: ListKind, window: Range<Int64>) {
            self.kind = kind
            self.window = window
            expansions = kind.rangeExpansions
            isRange = true
        }

        /// A follow-up list.
        init(
            kind: ListKind, window: Range<Int64>? = nil, path: String? = nil, endpoint: String? = nil,
            filter: [(String, String)] = []
        ) {
            self.kind = kind
            self.window = window
            self.path = path
            self.endpoint = endpoint
            self.filter = filter
        }

        /// The same list over another window, from its start. A piece is split again only into pieces of several
        /// pages: the fine first split fans a short list out at once, while the tails of a long one are not cut
        /// into many half-empty pages.
        func piece(_ window: Range<Int64>) -> ListStream {
            var piece = self
            piece.window = window
            piece.cursor = nil
            piece.listed = 0
            piece.minimumPagesPerPiece = max(minimumPagesPerPiece, 3)
            return piece
        }
    }

    /// One object by id.
    struct Retrieve: Sendable {
        var kind: ObjectKind
        var id: String
    }

    enum Work: Sendable {
        case list(ListStream)
        case retrieve(Retrieve)
        /// Plan the follow-ups while the balance transactions list still pages.
        case planFollowUps
        /// Plan the lists of what each payout of the range paid out, as soon as the payouts list has ended.
        case planPayoutLists
        /// Search a connected account's transfers for the repayments of won disputes.
        case repaymentScan(RepaymentScan)

        /// Identifies a follow-up so it is requested once per run.
        var key: String {
            switch self {
            case .list(let stream):
                "list \(stream.path ?? stream.kind.rawValue) \(stream.filter.map { "\($0.0)=\($0.1)" }) "
                    + (stream.window.map { "\($0.lowerBound)..<\($0.upperBound)" } ?? "")
            case .retrieve(let item): "get \(item.kind.rawValue) \(item.id)"
            case .planFollowUps: "plan"
            case .planPayoutLists: "plan payouts"
            case .repaymentScan(let scan): "repayments \(scan.destination) \(scan.disputeIDs) \(scan.since)"
            }
        }
    }

    private func run(_ items: [Work], _ context: Context) async throws {
        let queue = WorkQueue(items)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<options.concurrency {
                group.addTask {
                    while let item = await queue.next() {
                        do {
                            try await perform(item, queue: queue, context)
                            await queue.finished()
                        } catch {
                            await queue.fail()
                            throw error
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private func perform(_ work: Work, queue: WorkQueue<Work>, _ context: Context) async throws {
        switch work {
        case .list(let stream):
            try await page(stream, queue: queue, context)
        case .retrieve(let item):
            try await retrieve(item, context)
        case .planFollowUps:
            try await planEarly(queue: queue, context)
        case .planPayoutLists:
            try await planPayoutLists(queue: queue, context)
        case .repaymentScan(let scan):
            try await scanRepayments(scan, queue: queue, context)
        }
    }

    /// Pages one stream to its end, splitting its window by density.
    func page(_ start: ListStream, queue: WorkQueue<Work>, _ context: Context) async throws {
        var stream = start
        let path = stream.path ?? stream.kind.pathForList
        let endpoint = stream.endpoint ?? path
        await queue.streamStarted(endpoint)
        do {
            try await pageToEnd(&stream, path: path, endpoint: endpoint, queue: queue, context)
            await queue.streamEnded(endpoint)
        } catch {
            await queue.streamEnded(endpoint)
            throw error
        }
        // When every list but the balance transactions has ended, plan the follow-ups while that one pages.
        if stream.isRange, await context.lists.ended(stream.kind) { await queue.add(.planFollowUps) }
        // The payouts list is short and the lists of what each payout paid out are long: start them at once.
        if stream.isRange, stream.kind == .payouts, await context.lists.payoutListsDue() {
            await queue.add(.planPayoutLists)
        }
    }

    /// Pages `stream` to its end. Each page is written while the next one is fetched (the history has one writer,
    /// and a stream that waited for its writes would idle its cursor); writes stay in order, and the window's
    /// checkpoint goes with its last page.
    private func pageToEnd(
        _ stream: inout ListStream, path: String, endpoint: String, queue: WorkQueue<Work>, _ context: Context
    ) async throws {
        var previousIDs = Set<String>()
        var pendingWrite: Task<Void, any Error>?
        defer { pendingWrite?.cancel() }
        while true {
            var query: [(String, String)] = [("limit", "100")]
            if let window = stream.window {
                query += [("created[gte]", String(window.lowerBound)), ("created[lt]", String(window.upperBound))]
            }
            query += stream.filter
            if let cursor = stream.cursor { query.append(("starting_after", cursor)) }
            query += stream.expansions.map { ("expand[]", $0) }
            let started = ContinuousClock.now
            let page = try await stream.kind.fetchPage(client: client, path: path, endpoint: endpoint, query: query)
            let roundTrip = ContinuousClock.now - started
            if let repeated = page.ids.first(where: { previousIDs.contains($0) || $0 == stream.cursor }) {
                throw StripeClientError.brokenPagination(
                    endpoint: endpoint, requestID: page.requestID,
                    detail: "the page after \(stream.cursor ?? "the start") repeated \(repeated): the cursor did not advance")
            }
            previousIDs = Set(page.ids)
            stream.listed += page.objects

            if page.hasMore, let lastCreated = page.lastCreated {
                try await split(&stream, lastCreated: lastCreated, roundTrip: roundTrip, endpoint: endpoint, queue: queue, context)
            }

            let finished = !page.hasMore
            let checkpoint = finished && stream.isRange ? stream.window.map {
                ExtractionWindow(resource: stream.kind.rawValue, from: $0.lowerBound, to: $0.upperBound)
            } : nil
            let resource = stream.isRange ? stream.kind.rawValue : "follow-up lists"
            let kind = stream.kind
            let previous = pendingWrite
            let write = Task {
                try await previous?.value
                try Task.checkCancellation()
                let total = await context.tally.count(resource: resource, objects: page.objects)
                let outcome = try await store.write(
                    page.batch, run: context.runID, completing: checkpoint, windowObjects: page.objects,
                    now: context.now)
                await context.tally.record(outcome, pages: 1)
                await progress?.pageStored(resource: kind.rawValue, objects: page.objects, total: total)
            }
            pendingWrite = write
            if finished {
                pendingWrite = nil
                try await write.value
                if stream.kind == .payoutTransactions,
                    let payoutID = stream.filter.first(where: { $0.0 == "payout" })?.1
                {
                    // Every page is stored: the payout's transactions count as listed in this run.
                    try await store.recordPayoutListing(payoutID: payoutID, run: context.runID)
                }
                return
            }
            stream.cursor = page.lastID
        }
    }

    /// Pages a piece should be expected to hold, at least: a piece's last page is partly empty, so a piece of
    /// 0.85 pages mostly costs one request, and long lists are cut into pieces of many pages anyway (no more
    /// pieces than keep the endpoint at its rate).
    static let minimumPagesPerPiece = 0.85
    /// Cursors of one endpoint worth keeping in flight, at most.
    static let maximumStreams = 16

    /// Cuts the rest of a dense window into pieces that page at once: as many as keep the endpoint at its rate
    /// (its rate × the round trip, counting the cursors already in flight), each expected to hold at least
    /// ``minimumPagesPerPiece`` pages by the density seen so far, and no more than there are idle workers.
    /// The stream keeps the newest piece and goes on with its cursor; the older pieces start from their start.
    private func split(
        _ stream: inout ListStream, lastCreated: Int64, roundTrip: Duration, endpoint: String,
        queue: WorkQueue<Work>, _ context: Context
    ) async throws {
        guard stream.splits, let window = stream.window,
            lastCreated - window.lowerBound >= 2 * options.minimumSplitSeconds
        else {
            return
        }
        let seen = Double(max(1, window.upperBound - lastCreated))
        let remainingPages = Double(stream.listed) / seen * Double(lastCreated - window.lowerBound) / 100
        let seconds = Double(roundTrip.components.seconds) + Double(roundTrip.components.attoseconds) / 1e18
        let wanted = min(Self.maximumStreams, Int((client.endpointRate * min(seconds, 1)).rounded(.up)) + 1)
        let inFlight = await queue.streams(endpoint)
        let idle = await queue.idleWorkers
        // This stream's piece counts as one of the pieces; the remaining pages, not counting its next one.
        let pieces = min(
            Int(remainingPages / stream.minimumPagesPerPiece), wanted - inFlight + 1, idle + 1,
            Int((lastCreated - window.lowerBound) / options.minimumSplitSeconds))
        guard pieces >= 2 else { return }
        let span = lastCreated - window.lowerBound
        var bounds = (0...pieces).map { window.lowerBound + span * Int64($0) / Int64(pieces) }
        bounds[pieces] = lastCreated
        for index in 0..<(pieces - 1) {
            let piece = stream.piece(bounds[index]..<bounds[index + 1])
            if stream.isRange { await context.lists.started(stream.kind) }
            await queue.add(.list(piece))
        }
        stream.window = bounds[pieces - 1]..<window.upperBound
        stream.minimumPagesPerPiece = max(stream.minimumPagesPerPiece, 3)
    }

    private func retrieve(_ item: Retrieve, _ context: Context) async throws {
        let tally = context.tally
        var batch = ObjectBatch()
        let found: Bool
        let id = item.id
        switch item.kind {
        case .charge:
            found = try await fetch(Charge.self, "/v1/charges/\(id)", "/v1/charges/{id}", [("expand[]", "payment_intent")]) {
                Absorber.charge($0, raw: $1, into: &batch)
            }
        case .paymentIntent:
            found = try await fetch(PaymentIntent.self, "/v1/payment_intents/\(id)", "/v1/payment_intents/{id}", []) {
                Absorber.paymentIntent($0, raw: $1, into: &batch)
            }
        case .transfer:
            found = try await fetch(Transfer.self, "/v1/transfers/\(id)", "/v1/transfers/{id}", []) {
                Absorber.transfer($0, raw: $1, into: &batch)
            }
        case .applicationFee:
            found = try await fetch(ApplicationFee.self, "/v1/application_fees/\(id)", "/v1/application_fees/{id}", []) {
                Absorber.applicationFee($0, raw: $1, into: &batch)
            }
        case .balanceTransaction:
            found = try await fetch(
                BalanceTransaction.self, "/v1/balance_transactions/\(id)", "/v1/balance_transactions/{id}", []
            ) { Absorber.balanceTransaction($0, raw: $1, into: &batch) }
        case .feeRefund, .transferReversal, .dispute, .refund, .payout:
            return  // reached through lists, never by id
        }
        if found {
            let total = await tally.count(resource: "follow-ups by id", objects: 1)
            let outcome = try await store.write(batch, run: context.runID, now: context.now)
            await tally.record(outcome, pages: 0)
            await progress?.pageStored(resource: "follow-ups by id", objects: 1, total: total)
        } else {
            logger.warning("referenced object not found (404)", metadata: ["kind": "\(item.kind.rawValue)", "id": "\(id)"])
            try await store.recordMissing(
                kind: item.kind, id: id, referencedBy: "an object of the range", requestID: nil, run: context.runID)
            await tally.missing()
        }
    }

    private func fetch<Object: StripeObject>(
        _ type: Object.Type, _ path: String, _ endpoint: String, _ query: [(String, String)],
        absorb: (Object, String) -> Void
    ) async throws -> Bool {
        guard let (object, raw) = try await client.retrieve(type, path: path, query: query, endpoint: endpoint) else {
            return false
        }
        absorb(object, raw)
        return true
    }
}

extension ListKind {
    /// The list endpoint of a range list.
    var pathForList: String { "/v1/" + rawValue }
}

/// Running totals of an extraction, shared by the workers.
actor Tally {
    struct Snapshot: Sendable {
        var objects: [String: Int] = [:]
        var outcome = WriteOutcome()
        var pages = 0
        var missing = 0
    }

    private(set) var snapshot = Snapshot()

    func count(resource: String, objects: Int) -> Int {
        snapshot.objects[resource, default: 0] += objects
        return snapshot.objects[resource, default: 0]
    }

    func record(_ outcome: WriteOutcome, pages: Int) {
        snapshot.outcome = snapshot.outcome + outcome
        snapshot.pages += pages
    }

    func missing() { snapshot.missing += 1 }
}
