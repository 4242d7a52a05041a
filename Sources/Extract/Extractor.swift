import Foundation
import History
import Logging
import ReconCore
import StripeAPI

/// Fetches everything a range needs into the history (SPEC §3), as fast as the rate budget allows.
///
/// 1. The range's lists (charges with their PaymentIntents expanded, transfers, application fees, balance
///    transactions, disputes, refunds) are paged over time windows by `concurrency` workers at once; a
///    window that turns out dense is split while a worker is idle. Each finished window is checkpointed in
///    the same transaction as its last page, so an interrupted run's successor skips it.
/// 2. Follow-ups, found by asking the history what the range refers to but this run has not seen: charges
///    of refunds and disputes, transfers and fees settled after the range, reversals and fee refunds beyond
///    the 10 embedded, refunds and disputes made after the range, and every balance transaction of those.
///    Each is requested once per run; a 404 is recorded for the reconciler, not a crash.
public struct Extractor: Sendable {
    public struct Options: Sendable {
        /// Workers: requests in flight at once.
        public var concurrency: Int
        /// The range is never extracted closer to `now` than this.
        public var settleMargin: Int64
        /// Initial window length. Windows start long (few requests on a quiet account) and are split while a
        /// worker is idle (many streams in flight on a busy one); each finished window is a checkpoint.
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

        let tally = Tally()
        let done = try store.completedWindows(run: runID)
        var windowsByKind: [[Work]] = []
        for kind in ListKind.rangeLists {
            let finished = done.filter { $0.resource == kind.rawValue }.map { $0.from..<$0.to }
            let remaining = Intervals.subtract(finished, from: from..<to)
            summary.resumedWindows += finished.count
            windowsByKind.append(
                remaining.flatMap { Intervals.split($0, length: options.windowSeconds) }.map {
                    .list(ListStream(kind: kind, window: $0, cursor: nil))
                })
        }
        // The balance transactions list is the longest (a transaction for every charge, refund, transfer, fee…), so
        // its rate limit decides the extraction's length: it keeps its rate while the others share the rest.
        await client.prioritize(endpoint: ListKind.balanceTransactions.pathForList)
        // Interleaved across kinds, so every endpoint has cursors in flight from the first second.
        var work: [Work] = []
        for index in 0..<(windowsByKind.map(\.count).max() ?? 0) {
            for windows in windowsByKind where index < windows.count { work.append(windows[index]) }
        }
        try await run(work, runID: runID, now: now, tally: tally)

        // Follow-ups until the history holds everything the range refers to.
        let chain = try store.runChain(runID)
        var requested = Set<String>()
        var round = 0
        while true {
            let needs = try await store.followUpNeeds(from: from, to: to, chain: chain)
            let items = Self.followUpWork(needs).filter { !requested.contains($0.key) }
            if items.isEmpty { break }
            round += 1
            guard round <= 8 else { throw ExtractionError.followUpsDidNotSettle(rounds: round - 1, remaining: items.count) }
            requested.formUnion(items.map(\.key))
            summary.followUps += items.count
            await progress?.followUpsPlanned(round: round, count: items.count)
            logger.info("follow-ups", metadata: ["round": "\(round)", "requests": "\(items.count)"])
            try await run(items, runID: runID, now: now, tally: tally)
        }
        summary.followUpRounds = round
        let totals = await tally.snapshot
        summary.objectsByResource = totals.objects
        summary.new = totals.outcome.new
        summary.updated = totals.outcome.updated
        summary.unchanged = totals.outcome.unchanged
        summary.pages = totals.pages
        summary.missing = totals.missing
        return summary
    }

    // MARK: - Work

    /// A list paged with a cursor, over a time window (range lists) or unbounded (follow-up lists).
    struct ListStream: Sendable {
        var kind: ListKind
        var window: Range<Int64>?
        var cursor: String?
        /// For follow-up lists: the path (`/v1/transfers/tr_1/reversals`), endpoint and extra filter.
        var path: String?
        var endpoint: String?
        var filter: [(String, String)] = []
        /// The won dispute whose repayment this list searches for, recorded as searched when it ends.
        var repaymentFor: String?
    }

    /// One object by id.
    struct Retrieve: Sendable {
        var kind: ObjectKind
        var id: String
    }

    enum Work: Sendable {
        case list(ListStream)
        case retrieve(Retrieve)

        /// Identifies a follow-up so it is requested once per run.
        var key: String {
            switch self {
            case .list(let stream): "list \(stream.path ?? stream.kind.rawValue) \(stream.filter.map { "\($0.0)=\($0.1)" })"
            case .retrieve(let item): "get \(item.kind.rawValue) \(item.id)"
            }
        }
    }

    private func run(_ items: [Work], runID: Int64, now: Int64, tally: Tally) async throws {
        let queue = WorkQueue(items)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<options.concurrency {
                group.addTask {
                    while let item = await queue.next() {
                        do {
                            try await perform(item, queue: queue, runID: runID, now: now, tally: tally)
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

    private func perform(_ work: Work, queue: WorkQueue<Work>, runID: Int64, now: Int64, tally: Tally) async throws {
        switch work {
        case .list(let stream):
            try await page(stream, queue: queue, runID: runID, now: now, tally: tally)
        case .retrieve(let item):
            try await retrieve(item, runID: runID, now: now, tally: tally)
        }
    }

    /// Cursors of one endpoint that keep it at its limit: Stripe's 25 requests/s per endpoint at 150–200 ms a page
    /// need at least 4–5 in flight.
    static let minimumStreams = 6

    /// Pages one stream to its end, splitting its window when a worker is idle and the window is long.
    private func page(_ start: ListStream, queue: WorkQueue<Work>, runID: Int64, now: Int64, tally: Tally) async throws {
        var stream = start
        let path = stream.path ?? stream.kind.pathForList
        let endpoint = stream.endpoint ?? path
        await queue.streamStarted(endpoint)
        do {
            try await pageToEnd(&stream, path: path, endpoint: endpoint, queue: queue, runID: runID, now: now, tally: tally)
            await queue.streamEnded(endpoint)
        } catch {
            await queue.streamEnded(endpoint)
            throw error
        }
    }

    private func pageToEnd(
        _ stream: inout ListStream, path: String, endpoint: String, queue: WorkQueue<Work>, runID: Int64, now: Int64,
        tally: Tally
    ) async throws {
        var previousIDs = Set<String>()
        while true {
            var query: [(String, String)] = [("limit", "100")]
            if let window = stream.window {
                query += [("created[gte]", String(window.lowerBound)), ("created[lt]", String(window.upperBound))]
            }
            query += stream.filter
            if let cursor = stream.cursor { query.append(("starting_after", cursor)) }
            query += stream.kind.expansions.map { ("expand[]", $0) }
            let page = try await stream.kind.fetchPage(client: client, path: path, endpoint: endpoint, query: query)
            if let repeated = page.ids.first(where: { previousIDs.contains($0) || $0 == stream.cursor }) {
                throw StripeClientError.brokenPagination(
                    endpoint: endpoint, requestID: page.requestID,
                    detail: "the page after \(stream.cursor ?? "the start") repeated \(repeated): the cursor did not advance")
            }
            previousIDs = Set(page.ids)

            // Split a dense window: the older half goes to an idle worker, this stream keeps the newer half.
            // Not while the endpoint (or the account) is at its rate limit: another stream would only wait for
            // the budget, holding a worker that the busiest endpoint needs (issue 6).
            // The one exception: an endpoint with fewer than `minimumStreams` cursors in flight cannot reach its
            // limit at all (each cursor waits a round trip per page), so it is split even near its limit.
            let fewStreams = await queue.streams(endpoint) < Self.minimumStreams
            if page.hasMore, let window = stream.window, let lastCreated = page.lastCreated,
                lastCreated - window.lowerBound >= options.minimumSplitSeconds, await queue.hasIdleWorker,
                await client.hasHeadroom(endpoint: endpoint) || fewStreams
            {
                let middle = window.lowerBound + (lastCreated - window.lowerBound) / 2
                if middle > window.lowerBound && middle <= lastCreated {
                    await queue.add(.list(ListStream(kind: stream.kind, window: window.lowerBound..<middle, cursor: nil)))
                    stream.window = middle..<window.upperBound
                }
            }

            let finished = !page.hasMore
            let checkpoint = finished ? stream.window.map {
                ExtractionWindow(resource: stream.kind.rawValue, from: $0.lowerBound, to: $0.upperBound)
            } : nil
            let total = await tally.count(resource: stream.path == nil ? stream.kind.rawValue : "follow-up lists", objects: page.objects)
            let outcome = try await store.write(
                page.batch, run: runID, completing: checkpoint, windowObjects: page.objects, now: now)
            await tally.record(outcome, pages: 1)
            await progress?.pageStored(resource: stream.kind.rawValue, objects: page.objects, total: total)
            if finished {
                if let disputeID = stream.repaymentFor { try await store.recordRepaymentSearch(disputeID: disputeID, run: runID) }
                return
            }
            stream.cursor = page.lastID
        }
    }

    private func retrieve(_ item: Retrieve, runID: Int64, now: Int64, tally: Tally) async throws {
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
        case .feeRefund, .transferReversal, .dispute, .refund:
            return  // reached through lists, never by id
        }
        if found {
            let total = await tally.count(resource: "follow-ups by id", objects: 1)
            let outcome = try await store.write(batch, run: runID, now: now)
            await tally.record(outcome, pages: 0)
            await progress?.pageStored(resource: "follow-ups by id", objects: 1, total: total)
        } else {
            logger.warning("referenced object not found (404)", metadata: ["kind": "\(item.kind.rawValue)", "id": "\(id)"])
            try await store.recordMissing(kind: item.kind, id: id, referencedBy: "an object of the range", requestID: nil, run: runID)
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

    /// The requests that satisfy `needs`.
    static func followUpWork(_ needs: FollowUpNeeds) -> [Work] {
        var work: [Work] = []
        work += needs.charges.map { .retrieve(Retrieve(kind: .charge, id: $0)) }
        work += needs.paymentIntents.map { .retrieve(Retrieve(kind: .paymentIntent, id: $0)) }
        work += needs.transfers.map { .retrieve(Retrieve(kind: .transfer, id: $0)) }
        work += needs.applicationFees.map { .retrieve(Retrieve(kind: .applicationFee, id: $0)) }
        work += needs.balanceTransactions.map { .retrieve(Retrieve(kind: .balanceTransaction, id: $0)) }
        work += needs.transferReversalLists.map {
            .list(ListStream(kind: .transferReversals, path: "/v1/transfers/\($0)/reversals", endpoint: "/v1/transfers/{id}/reversals"))
        }
        work += needs.feeRefundLists.map {
            .list(ListStream(kind: .feeRefunds, path: "/v1/application_fees/\($0)/refunds", endpoint: "/v1/application_fees/{id}/refunds"))
        }
        work += needs.chargeRefundLists.map {
            .list(ListStream(kind: .refunds, path: "/v1/refunds", endpoint: "/v1/refunds", filter: [("charge", $0)]))
        }
        work += needs.chargeDisputeLists.map {
            .list(ListStream(kind: .disputes, path: "/v1/disputes", endpoint: "/v1/disputes", filter: [("charge", $0)]))
        }
        work += needs.repaymentSearches.map {
            .list(
                ListStream(
                    kind: .transfers, path: "/v1/transfers", endpoint: "/v1/transfers",
                    filter: [("destination", $0.destination), ("created[gte]", String($0.since))],
                    repaymentFor: $0.disputeID))
        }
        return work
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
