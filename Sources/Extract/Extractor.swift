import Foundation
import History
import Logging
import ReconCore
import StripeAPI

/// Fetches everything a range needs into the history (docs/EXTRACTION.md), with as few requests as Stripe allows and as
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
///    (``HistoryStore/gaps(from:to:chain:)``, planned by ``FollowUpPlanner``). They are planned as soon as
///    every list but the balance transactions (the longest) has ended, and run while it still pages; rounds after
///    that take what is left. Each need is fetched the cheaper way (``FollowUpPlanner``): a window after the range
///    of a list where such objects are dense, requests by id or by charge where they are sparse. Each is
///    requested once per run; a 404 is recorded for the reconciler, not a crash. The balance transactions each
///    automatic payout of the range paid out are one such need: `?payout=` is paged once per payout per run.
/// 3. Late outcomes (docs/EXTRACTION.md): the objects of the look-back window before the range that the history holds
/// in a    state that can still change are read again beside the lists (``LateReadPlanner``: by id where they are few,
///    a `created` window of their list where they are many); which of them changed is recorded for the reconcile,
///    and the follow-ups fetch what the rules read of those.
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
        /// The look-back window before the range whose objects that are not final are read again (docs/EXTRACTION.md,
        /// "Late outcomes"), in seconds; 0 reads nothing again.
        public var lookbackSeconds: Int64
        /// The grace period of asynchronous capture: a charge read while younger than this with a part missing is
        /// read again.
        public var skippedTransferGrace: Int64
        /// Pages one cursor reads of a payout's list before the rest may be read in windows
        /// (``PayoutListing/cursorPages``).
        public var payoutCursorPages: Int
        /// `expand[]` paths left out of a kind's range list (and of the look-back windows read with it), each with
        /// the paths under it (`data.transfer` takes `data.transfer.balance_transaction`): what the follow-ups then
        /// fetch instead. Empty (every ``CatalogueEntry/rangeExpansions``) but in `connect-recon-bench --only
        /// expansions`, which measures what each expansion costs and saves.
        public var droppedExpansions: [ObjectKind: Set<String>] = [:]
        /// Whether the range's balance is compared with Stripe's own Balance report (the Reporting API), and the
        /// ranges whose report Stripe had not published when an earlier run asked.
        public var compareWithStripeReports = true
        /// The metadata keys whose values name what an account debit recovers (`reconcile.debit_link_keys`): a debit
        /// of the range naming an earlier charge has that charge judged again.
        public var debitLinkKeys = ChargeFacts.defaultDebitLinkKeys
        /// How the report runs are waited for.
        public var reportPolling = ReportPolling()
        /// The longest time from the range's end to Stripe's balance read that the extraction lists to anchor the
        /// range's balance when the history does not reach it already (docs/EXTRACTION.md): a week.
        public var balanceGapLimit: Int64 = 7 * 86_400

        public init(
            concurrency: Int, settleMargin: Int64, windowSeconds: Int64 = 7 * 86_400, minimumSplitSeconds: Int64 = 2,
            lookbackSeconds: Int64 = 0, skippedTransferGrace: Int64 = 3_600,
            payoutCursorPages: Int = PayoutListing.cursorPages
        ) {
            self.concurrency = max(1, concurrency)
            self.settleMargin = settleMargin
            self.windowSeconds = max(1, windowSeconds)
            self.minimumSplitSeconds = max(2, minimumSplitSeconds)
            self.lookbackSeconds = max(0, lookbackSeconds)
            self.skippedTransferGrace = skippedTransferGrace
            self.payoutCursorPages = max(1, payoutCursorPages)
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
    public func extract(
        from: Int64, to requestedTo: Int64, runID: Int64, now: Int64
    ) async throws -> ExtractionSummary {
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

        let done = try await store.runs.completedWindows(run: runID)
        // What the span before the range held, per list: a list the history expects to be dense starts in pieces.
        let reference = (from - min(to - from, 7 * 86_400))..<from
        let expected = try await store.gaps.objectCounts(
            of: ListKind.rangeLists.map(\.objectKind), createdIn: reference)
        var windowsByKind: [[ExtractionWork]] = []
        var decidingWindows: [ExtractionWork] = []
        var streams: [ListKind: Int] = [:]
        for kind in ListKind.rangeLists {
            let finished = done.filter { $0.resource == kind.rawValue }.map { $0.from..<$0.to }
            let remaining = Intervals.subtract(finished, from: from..<to)
            summary.resumedWindows += finished.count
            let long = remaining.flatMap { Intervals.split($0, length: options.windowSeconds) }
            // Objects per second the span before held (``known(_:)`` says what a span that held none says).
            let count = expected[kind.objectKind] ?? 0
            let density = Double(count) / Double(max(1, reference.upperBound - reference.lowerBound))
            let dropped = options.droppedExpansions[kind.objectKind] ?? []
            let work = Self.startingStreams(kind, windows: long, density: density, endpointRate: client.endpointRate)
                .map { ExtractionWork.list($0.dropping(dropped)) }
            streams[kind] = work.count
            if kind == Self.listDecidingLength { decidingWindows = work } else { windowsByKind.append(work) }
        }
        // Stripe's balance is read first, beside the lists: what carries it back to `to` is listed once it is known
        // (``readBooks(dispatcher:_:)``), unless the history already holds a way back (a re-run of an older range).
        let books = BooksReads(
            anchoredByHistory: try await store.balance.canAnchor(from: from, to: to),
            finishedAfterRange: done.filter { $0.resource == ListKind.balanceTransactions.rawValue && $0.to > to }
                .map { max($0.from, to)..<$0.to }, to: to)
        let context = ExtractionContext(
            from: from, to: to, runID: runID, now: now, chain: try await store.runs.runChain(runID), tally: Tally(),
            lists: RangeLists(streams: streams),
            planner: FollowUpPlanner(
                after: to..<max(to, now) + 1, rangeSeconds: max(1, to - from),
                payoutCursorPages: options.payoutCursorPages), books: books,
            followsMovesByHand: options.lookbackSeconds > 0
                ? try await store.runs.hasCompletedExtraction(overlapping: (from - options.lookbackSeconds)..<from)
                : false, debitLinkKeys: options.debitLinkKeys)
        await client.prioritize(endpoint: Self.listDecidingLength.pathForList)
        // The objects of the look-back window that are not final, read again beside the range's lists.
        var lateReads: [ExtractionWork] = []
        if options.lookbackSeconds > 0 {
            let plan = try await store.gaps.planLateReads(
                run: runID, window: (from - options.lookbackSeconds)..<from, now: now,
                grace: options.skippedTransferGrace)
            summary.lateReads = plan.objects.values.reduce(0) { $0 + $1.count }
            lateReads = LateReadPlanner.work(for: plan, windowEnd: from).map { work in
                guard case .list(let stream) = work else { return work }
                return .list(stream.dropping(options.droppedExpansions[stream.kind.objectKind] ?? []))
            }
            if !lateReads.isEmpty {
                logger.info(
                    "late outcomes: reading again what is not final yet",
                    metadata: ["objects": "\(summary.lateReads)", "requests": "\(lateReads.count)"])
            }
        }
        // Stripe's balance first; then the pieces of the list that decides the run's length, which take its
        // endpoint's slots from the first instant, one every 1/rate s; then the rest interleaved across kinds, so
        // every endpoint has cursors in flight from the first second.
        var work: [ExtractionWork] = [.readBalance]
        work += decidingWindows
        work += lateReads.filter { if case .list = $0 { true } else { false } }
        for index in 0..<(windowsByKind.map(\.count).max() ?? 0) {
            for windows in windowsByKind where index < windows.count { work.append(windows[index]) }
        }
        work += lateReads.filter { if case .list = $0 { false } else { true } }
        if await context.lists.othersEnded() { work.append(.planFollowUps) }
        if await context.lists.payoutListsDue() { work.append(.planPayoutLists) }
        try await run(work, context)
        // What the reads found changed: the follow-ups fetch what the rules read of those too (they never change a
        // late object's own state: its charge, balance transactions and payout list are other objects).
        if summary.lateReads > 0 {
            summary.lateOutcomes = try await store.gaps.recordLateOutcomes(
                run: runID, now: now, grace: options.skippedTransferGrace)
        }

        // Follow-ups until the history holds everything the range refers to.
        var round = await context.planner.rounds
        var transfersAfterRecorded = false
        while true {
            if !transfersAfterRecorded, await context.planner.transfersWindowRequested {
                // The window `[to, now]` of every transfer has been paged (all work planned so far has run): it held
                // each transfer group's transfers made after the range.
                try await store.gaps.recordTransfersListing(after: to, run: runID)
                transfersAfterRecorded = true
            }
            let gaps = try await store.gaps.inRange(
                from: from, to: to, chain: context.chain, reversalsOfEarlierTransfers: context.followsMovesByHand,
                debitLinkKeys: context.debitLinkKeys)
            let items = await context.planner.work(for: gaps, listed: await context.tally.snapshot.objects)
            if items.isEmpty { break }
            round += 1
            guard round <= 8 else {
                throw ExtractionError.followUpsDidNotSettle(rounds: round - 1, remaining: items.count)
            }
            await progress?.followUpsPlanned(round: round, count: items.count)
            logger.info("follow-ups", metadata: ["round": "\(round)", "requests": "\(items.count)"])
            try await run(items, context)
        }
        summary.followUpRounds = round
        // Money moved by hand: what this range's reversals and transfers changed of the look-back window's charges.
        if options.lookbackSeconds > 0 {
            summary.movedByHand = try await store.gaps.recordMovedByHand(
                run: runID, range: from..<to, window: (from - options.lookbackSeconds)..<from, chain: context.chain,
                debitLinkKeys: options.debitLinkKeys)
            if summary.movedByHand > 0 {
                logger.info(
                    "money moved by hand: earlier charges judged again",
                    metadata: ["charges": "\(summary.movedByHand)"])
            }
        }
        let reports = await books.reports
        summary.stripeReportsCompared = reports.count
        for report in reports {
            try await store.balance.recordStripeReport(
                report.comparison, currency: report.currency, from: report.from, to: report.to, run: runID)
        }
        // Everything the snapshot needs is stored: later ranges may be carried to it.
        let listEnd = await books.listEnd
        summary.balanceTransactionsAfterRange = listEnd > to
        if let balance = await books.balance {
            summary.balanceRead = true
            try await store.balance.record(balance.snapshot, raw: balance.json, run: runID, covered: from..<listEnd)
        }
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

    /// Reads Stripe's balance, then hands the workers what carries it back to the range: the balance transactions
    /// created from the range's end to the read (unless the history already reaches a snapshot, or the read is more
    /// than ``Options/balanceGapLimit`` after the range: then not anchored, and said so), the automatic payouts
    /// arriving from the range on (only up to a day after it when nothing after the range is listed), and Stripe's
    /// reports in the currencies of the `payments` balance.
    func readBooks(dispatcher: ExtractionDispatcher<ExtractionWork>, _ context: ExtractionContext) async throws {
        let (from, to, books) = (context.from, context.to, context.books)
        let balance = try await readBalance(now: context.now)
        let reachable = balance.map { $0.snapshot.end - to <= options.balanceGapLimit } ?? false
        let listsAfter = !books.anchoredByHistory && reachable
        let listEnd = listsAfter ? max(to, balance?.snapshot.end ?? to) : to
        await books.read(balance, listEnd: listEnd)
        if balance != nil, !books.anchoredByHistory, !reachable {
            logger.notice(
                "the range ends too long before the balance read: not anchored; extract the days since to prove it",
                metadata: ["limit_days": "\(options.balanceGapLimit / 86_400)"])
        }
        let dropped = options.droppedExpansions[.balanceTransaction] ?? []
        for window in Intervals.subtract(books.finishedAfterRange, from: to..<listEnd) {
            await context.lists.started(.balanceTransactions)
            await dispatcher.add(.list(ListStream(range: .balanceTransactions, window: window).dropping(dropped)))
        }
        if !books.anchoredByHistory {
            await dispatcher.add(.list(PayoutArrivals.stream(from: from, until: listsAfter ? nil : to)))
        }
        if options.compareWithStripeReports, let balance {
            await dispatcher.add(.compareStripeReports(Self.paymentsCurrencies(balance.snapshot)))
        }
    }

    static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    /// The currencies of the `payments` balance: those Stripe's Balance report covers.
    static func paymentsCurrencies(_ snapshot: BalanceSnapshot) -> [Currency] {
        snapshot.amounts.keys.filter { $0.balanceType == .payments }.map(\.currency).sorted {
            $0.rawValue < $1.rawValue
        }
    }

    /// Stripe's Balance reports of `[from, to)` in `currencies`, and of the earlier ranges the history holds as not
    /// yet published (docs/RULES.md, "The books close"): each a comparison to keep, none of them a failure.
    private func compareWithStripeReports(
        from: Int64, to: Int64, currencies: [Currency]
    ) async throws -> [BooksReads.Report] {
        guard options.compareWithStripeReports, !currencies.isEmpty else { return [] }
        let runner = StripeReportRunner(client: client, polling: options.reportPolling, logger: logger)
        var ranges: [Range<Int64>: [Currency]] = [from..<to: currencies]
        for earlier in try await store.balance.unpublishedStripeReports() where earlier.from..<earlier.to != from..<to {
            ranges[earlier.from..<earlier.to, default: []].append(earlier.currency)
        }
        var results: [BooksReads.Report] = []
        for (range, rangeCurrencies) in ranges.sorted(by: { $0.key.lowerBound < $1.key.lowerBound }) {
            let summaries = try await runner.summaries(
                from: range.lowerBound, to: range.upperBound, currencies: rangeCurrencies)
            var statuses: [String: [String]] = [:]
            for summary in summaries {
                let comparison = summary.comparison
                let status: String =
                    switch comparison {
                    case .published: "published"
                    case .notYetPublished: "not_yet_published"
                    case .notPermitted: "not_permitted"
                    case .unavailable: "unavailable"
                    }
                statuses[status, default: []].append(summary.currency.rawValue)
                if case .unavailable(let reason) = comparison {
                    logger.warning(
                        "Stripe's Balance report could not be compared",
                        metadata: ["currency": "\(summary.currency.rawValue)", "reason": "\(reason)"])
                }
                results.append(
                    BooksReads.Report(
                        from: range.lowerBound, to: range.upperBound, currency: summary.currency, comparison: comparison
                    ))
            }
            logger.info(
                "Stripe's Balance reports",
                metadata: statuses.mapValues { .string($0.joined(separator: ",")) }.merging(
                    [
                        "from": "\(RFC3339.string(unixSeconds: range.lowerBound, in: Self.utc))",
                        "to": "\(RFC3339.string(unixSeconds: range.upperBound, in: Self.utc))",
                    ]) { first, _ in first })
        }
        return results
    }

    /// `GET /v1/balance`, as a snapshot taken at Stripe's answer; `nil`, with a warning, when it cannot be had (a
    /// restricted key without read access to the balance, an answer that is not a balance): the proofs of the books
    /// are then not made, and the run goes on (docs/BAD_INPUT.md).
    private func readBalance(now: Int64) async throws -> (snapshot: BalanceSnapshot, json: String)? {
        let read: (balance: StripeBalance, takenAt: Int64, json: String)
        do {
            read = try await client.balance(now: now)
        } catch {
            if Task.isCancelled { throw error }
            logger.warning(
                "Stripe's balance could not be read: the range's balance is not anchored, the books are not proven",
                metadata: ["error": "\(error.message)"])
            return nil
        }
        guard let snapshot = read.balance.snapshot(takenAt: read.takenAt) else {
            logger.warning("Stripe's balance adds up past 64 bits, which no real balance does: it is not used")
            return nil
        }
        logger.info(
            "Stripe balance read", metadata: ["at": "\(read.takenAt)", "balances": "\(snapshot.amounts.count)"])
        return (snapshot, read.json)
    }

    // MARK: - Workers

    /// Runs `items` on `concurrency` workers until nothing is pending and no worker is busy; the first error stops
    /// every worker and is rethrown.
    func run(_ items: [ExtractionWork], _ context: ExtractionContext) async throws {
        let dispatcher = ExtractionDispatcher(items)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<options.concurrency {
                group.addTask {
                    while let item = await dispatcher.next() {
                        do {
                            try await perform(item, dispatcher: dispatcher, context)
                            await dispatcher.finished()
                        } catch {
                            await dispatcher.fail()
                            throw error
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The longest list (a balance transaction for every charge, refund, transfer, fee…): its endpoint's rate limit
    /// decides the extraction's length, so it keeps its rate while the others share the rest.
    static let listDecidingLength = ListKind.balanceTransactions

    /// The streams `kind`'s `windows` start paging as: each window cut into ``pieces(_:density:endpointRate:decidesLength:)``.
    /// A piece cut by the density before is split again, as after a split, only into pieces of the pages its cut
    /// asked for; one cut knowing nothing splits on its first page as a whole list does.
    static func startingStreams(_ kind: ListKind, windows: [Range<Int64>], density: Double?, endpointRate: Double)
        -> [ListStream]
    {
        let decidesLength = kind == listDecidingLength
        let density = Self.known(density)
        let pieces = windows.flatMap {
            Self.pieces($0, density: density, endpointRate: endpointRate, decidesLength: decidesLength)
        }
        return pieces.map { window in
            var stream = ListStream(range: kind, window: window)
            if density != nil, pieces.count > windows.count {
                stream.minimumPagesPerPiece = ListPager.firstPiecePages(decidesLength: decidesLength)
            }
            stream.density = density
            return stream
        }
    }

    /// A density that says something of a list: `nil` when the history saw none, or saw a span that held no object
    /// (which says nothing either: the list may start tomorrow).
    static func known(_ density: Double?) -> Double? { density.flatMap { $0 > 0 ? $0 : nil } }

    /// `window` cut into the pieces a list of `density` objects per second (`nil`: the history saw none) should page
    /// at once from its first request, no more of them than keep its endpoint at `endpointRate` over Stripe's usual
    /// round trip. Each piece ends in a partly empty page, which the round trips it saves must pay for:
    /// - the list that decides the run's length (`decidesLength`, the balance transactions) is cut into pieces
    ///   expected to hold ``ListPager/piecePages`` pages or more: its partly empty pages take its endpoint's
    ///   slots. Known to nothing, it starts in as many pieces as its endpoint keeps in flight over a round trip (4 at
    ///   25/s): a list that turns out short pays three partly empty pages at the most, in a run that is short
    ///   anyway; a dense one gains its first round trip;
    /// - a list beside it is cut into pieces of ``ListPager/firstPiecePagesBeside`` pages or more: its endpoint is
    ///   not the one the run waits for, so its chain of round trips must not be (an expanded page takes longer: the
    ///   charges', 0.3 s in the sandbox).
    /// A list expected to be short stays whole; a piece found denser than expected is split further as it pages.
    static func pieces(_ window: Range<Int64>, density: Double?, endpointRate: Double, decidesLength: Bool)
        -> [Range<Int64>]
    {
        let wanted = ListPager.streamsWanted(endpointRate: endpointRate, roundTrip: ListPager.usualRoundTrip)
        let count: Int
        if let density = known(density) {
            let pages = density * Double(window.upperBound - window.lowerBound) / 100
            count = min(wanted, Int(pages / ListPager.firstPiecePages(decidesLength: decidesLength)))
        } else {
            count = decidesLength ? wanted - 1 : 1
        }
        return count >= 2 ? Intervals.split(window, into: count) : [window]
    }

    /// One item of work, on one worker.
    func perform(
        _ work: ExtractionWork, dispatcher: ExtractionDispatcher<ExtractionWork>, _ context: ExtractionContext
    ) async throws {
        switch work {
        case .list(let stream):
            try await pager.page(stream, dispatcher: dispatcher, context)
        case .retrieve(let kind, let id):
            try await followUps.retrieve(kind, id: id, context)
        case .lateRead(let kind, let id):
            try await followUps.retrieve(kind, id: id, lateRead: true, context)
        case .reversalOfTransaction(let id):
            try await followUps.retrieve(
                .balanceTransaction, id: id, expansions: FollowUpRunner.reversalExpansions, context)
        case .collectionOfTransaction(let id):
            try await followUps.collection(ofTransaction: id, context)
        case .sourceTransferOfDebit(let id):
            try await followUps.sourceTransfer(ofDebit: id, context)
        case .planFollowUps:
            try await followUps.planEarly(dispatcher: dispatcher, context)
        case .planPayoutLists:
            try await followUps.planPayoutLists(dispatcher: dispatcher, context)
        case .repaymentSearch(let search):
            try await search.run(pager: pager, store: store, dispatcher: dispatcher, context)
        case .payoutTransactions(let listing):
            try await listing.run(pager: pager, store: store, dispatcher: dispatcher, context)
        case .readBalance:
            try await readBooks(dispatcher: dispatcher, context)
        case .compareStripeReports(let currencies):
            await context.books.add(
                try await compareWithStripeReports(from: context.from, to: context.to, currencies: currencies))
        }
    }

    private var pager: ListPager {
        ListPager(
            client: client, store: store, minimumSplitSeconds: options.minimumSplitSeconds, progress: progress)
    }

    private var followUps: FollowUpRunner {
        FollowUpRunner(client: client, store: store, logger: logger, progress: progress)
    }
}
