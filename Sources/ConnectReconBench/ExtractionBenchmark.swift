import CurlTransport
import Extract
import Foundation
import History
import Logging
import ReconCore
import Sandbox
import StripeAPI
import Synchronization

/// Measurement (a): the extractor against a sandbox with Stripe's latency and limits, on ranges that sit inside
/// a longer history as a real platform's do, each against the bound its own requests set and side by side with a
/// sequential pager of the same lists on the same sandbox.
///
/// The world spans `days` days and `hours` hours (its end is "now"): refunds come up to 30 days after their
/// charges, disputes up to 75, so every range meets objects of older charges and its charges get refunded and
/// disputed after it. Three ranges: the nightly run (the last whole day, a few hours before now), a week in the
/// middle, and a month-old day run again. The nightly run and the week are measured again with the look-back of
/// late outcomes on, over a history that already holds the window before them (`ExtractionBenchmark+Lookback`).
struct ExtractionBenchmark {
    /// Platform charges in the sandbox's world.
    var charges: Int
    var days: Int
    var hours: Int = 4
    /// Where the histories of the runs go (the week's is kept for measurement (d)).
    var folder: URL
    /// A PostgreSQL server: the week is then extracted into a database there too, beside SQLite (issue 19: at
    /// most 10 % slower).
    var postgreSQL: PostgreSQLAddress?
    /// The share of the random charges made separately transferred charges (transfer groups): 0 keeps the world's
    /// mix of destination charges, whose only groups are the few guaranteed scenarios.
    var transferGroupShare: Double = 0

    static let latency: Duration = .milliseconds(150)
    /// Stripe warns that deep expansions on lists are slower: each expanded object costs this much.
    static let expansionLatency: Duration = .microseconds(500)
    static let globalLimit = 100.0
    static let endpointLimit = 25.0
    static let concurrency = 48
    static let key = "sk_test_connectReconBench0000000000"
    static let stripeVersion = "2026-07-29.dahlia"
    /// The CLI's defaults: `reconcile.lookback_days` 14, `reconcile.skipped_transfer_grace_seconds` 3600.
    static let lookback: Int64 = 14 * 86_400
    static let grace: Int64 = 3_600
    static let listPaths = [
        "/v1/charges", "/v1/transfers", "/v1/application_fees", "/v1/balance_transactions", "/v1/disputes",
        "/v1/refunds", "/v1/payouts",
    ]

    /// A range of the world, in whole days from its start.
    struct Scenario {
        var name: String
        var firstDay: Int
        var days: Int
        /// The states of the look-back window it is measured with again, the look-back on; none: not measured.
        var lookback: [LookbackState] = []
    }

    struct Result {
        var figures: [Figure]
        /// The history one run filled (the week's), for measurement (d).
        var databasePath: String
        var from: Int64
        var to: Int64
    }

    var scenarios: [Scenario] {
        [
            Scenario(
                name: "nightly: the last whole day, \(hours) h before now", firstDay: days - 1, days: 1,
                lookback: [.nothingPending, .tenthOfChargesPending, .asExtracted, .leftByTheNightsBefore]),
            Scenario(
                name: "a week in the middle", firstDay: days / 2 - 4, days: 7,
                lookback: [.nothingPending, .leftByTheNightsBefore]),
            Scenario(name: "a month-old day, run again", firstDay: days - 31, days: 1),
        ]
    }

    func run(log: @escaping @Sendable (String) -> Void) async throws -> Result {
        var options = Self.sandboxAtStripesLimits(charges: charges, days: days, hours: hours)
        options.transferGroupShare = transferGroupShare
        let server = try await SandboxServer.start(options)
        let start = Int64(server.world.start.timeIntervalSince1970)
        let now = Int64(server.world.end.timeIntervalSince1970)
        log("extraction: sandbox \(server.summary)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        var figures = [
            Figure(
                "world",
                "\(Format.count(charges)) charges over \(days) days \(hours) h, "
                    + "\(Format.count(server.world.objectCount)) objects"
                    + (transferGroupShare > 0
                        ? ", \(Int(transferGroupShare * 100)) % of charges in transfer groups" : ""),
                target: "latency 150 ms + \(Int(Self.expansionLatency.inSeconds * 1e6)) µs per expanded object, "
                    + "100/s, 25/s per endpoint")
        ]
        // The look-back's windows are filled from a second sandbox of the same world, without latency or limits.
        var fillOptions = options
        fillOptions.latency = .zero
        fillOptions.expansionLatency = .zero
        fillOptions.rateLimit = nil
        fillOptions.endpointRateLimit = nil
        let fillServer = try await SandboxServer.start(fillOptions)
        var kept: (path: String, from: Int64, to: Int64)?
        for (index, scenario) in scenarios.enumerated() {
            let from = start + Int64(scenario.firstDay) * 86_400
            let to = from + Int64(scenario.days) * 86_400
            let path = folder.appendingPathComponent("extraction-\(index).sqlite").path
            let measured = try await measure(
                scenario, server: server, from: from, to: to, now: now, path: path, log: log)
            figures += measured.figures
            if !scenario.lookback.isEmpty {
                figures += try await measureLookback(
                    scenario, index: index, servers: (server, fillServer), fillOptions: fillOptions, range: from..<to,
                    start: start, now: now,
                    today: measured.today, listed: measured.listed, log: log)
            }
            if scenario.days > 1 {
                kept = (path, from, to)
                if let postgreSQL {
                    figures += try await compareHistories(
                        server: server, from: from, to: to, now: now, postgreSQL: postgreSQL, log: log)
                }
            }
        }
        try await fillServer.shutdown()
        try await server.shutdown()
        let history = kept ?? (folder.appendingPathComponent("extraction-0.sqlite").path, start, now)
        return Result(figures: figures, databasePath: history.path, from: history.from, to: history.to)
    }

    /// One scenario: the extractor, then the sequential pager, on the same sandbox. Returns its figures, the
    /// extraction (today's figures for the look-back's) and how many objects the range's lists hold.
    private func measure(
        _ scenario: Scenario, server: SandboxServer, from: Int64, to: Int64, now: Int64, path: String,
        log: @escaping @Sendable (String) -> Void
    ) async throws -> (figures: [Figure], today: Observation, listed: Int) {
        let observed = try await observedExtraction(
            server: server, range: from..<to, now: now, into: Self.freshSQLiteHistory(path), options: Self.options())
        let seconds = observed.seconds
        let requests = observed.requests
        let summary = observed.summary
        let timeline = observed.timeline
        let busiest = observed.byEndpoint.max { $0.value < $1.value } ?? (key: "none", value: 0)
        let roundTrip = Self.latency.inSeconds
        let bound = max(Double(requests) / Self.globalLimit, Double(busiest.value) / Self.endpointLimit) + roundTrip
        let phases = timeline.phases(listPaths: Set(Self.listPaths))
        let endpoints = observed.endpoints
        log(
            "extraction [\(scenario.name)]: \(requests) requests in \(Format.seconds(seconds)), bound "
                + "\(Format.seconds(bound)); lists' last answer at \(Format.seconds(phases.lastListEnd)), "
                + "\(phases.followUps) other requests, last answer at "
                + "\(Format.seconds(timeline.histogram(path: "").lastEnd)); "
                + "\(summary.followUps) follow-ups in \(summary.followUpRounds) rounds; \(observed.expanded) expanded "
                + "objects")
        log("extraction [\(scenario.name)]: by endpoint: \(endpoints)")
        let spans = timeline.spans { Self.listPaths.contains($0) ? $0 : "by id and by parent" }
        for span in spans {
            log(
                "extraction [\(scenario.name)]:   \(span.path): \(span.requests) requests from "
                    + "\(Format.seconds(span.firstStart)) to \(Format.seconds(span.lastEnd)), mean round trip "
                    + Format.seconds(span.meanRoundTrip))
        }
        Self.writeTimeline(timeline, name: "\(from)-\(to)")
        let busiestPath = String(busiest.key.split(separator: " ").last ?? "")
        log(
            "extraction [\(scenario.name)]: \(busiestPath) requests started per second: "
                + timeline.histogram(path: busiestPath).perSecond.map(String.init).joined(separator: " "))

        // The sequential pager: one request in flight, one list after another, on the same sandbox.
        try await Task.sleep(for: .seconds(1.5))  // let the sandbox's rate windows empty
        let sequential = try await SequentialPager(server: server, from: from, to: to).run()
        try await Task.sleep(for: .seconds(1.5))
        log(
            "sequential pager [\(scenario.name)]: \(sequential.requests) requests, \(sequential.items) items in "
                + Format.seconds(sequential.seconds))

        let listed = max(sequential.items, 1)
        let perHundred = Double(requests) * 100 / Double(listed)
        let listsAlonePerHundred = Double(sequential.requests) * 100 / Double(listed)
        let range =
            "\(RFC3339.utcString(Date(timeIntervalSince1970: TimeInterval(from))).prefix(10))"
            + "..\(RFC3339.utcString(Date(timeIntervalSince1970: TimeInterval(to))).prefix(10))"
        let rateLimited = observed.rateLimited
        let figures = [
            Figure("**\(scenario.name)**", "\(range), lists hold \(Format.count(sequential.items)) objects"),
            Figure.atMost(
                "requests per 100 listed objects", perHundred, 1.3, format: { String(format: "%.2f", $0) },
                targetText: "≤ 1.30 (lists alone: \(String(format: "%.2f", listsAlonePerHundred)))"
            ),
            Figure(
                "requests (follow-ups), by endpoint", "\(Format.count(requests)) (\(summary.followUps)): \(endpoints)"),
            Figure(
                "wall time (bound: max(req/100, busiest/25) + 1 RTT)",
                "\(Format.seconds(seconds)) (bound \(Format.seconds(bound)))"),
            Figure.atLeast("share of the bound achieved", bound / seconds, 0.95, format: Format.percent),
            Figure(
                "429 answers", "\(rateLimited)", target: "0 runs lost", verdict: rateLimited == 0 ? .met : .info),
            Figure.atLeast(
                "speed-up against the sequential pager", sequential.seconds / seconds, 5, format: Format.ratio,
                targetText: "≥ 5× (pager: \(Format.seconds(sequential.seconds)), \(sequential.requests) requests)"),
        ]
        return (figures, observed, listed)
    }

    /// One extraction, timed and observed: the requests the sandbox answered while it ran, and their timeline.
    struct Observation {
        var summary: ExtractionSummary
        var runID: Int64
        var seconds: Double
        var requests: Int
        var byEndpoint: [String: Int]
        var rateLimited: Int
        var expanded: Int
        var timeline: TimelineTransport

        /// `path count` per endpoint, the busiest first.
        var endpoints: String {
            byEndpoint.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
                .map { "\($0.key.replacingOccurrences(of: "GET ", with: "")) \($0.value)" }.joined(separator: ", ")
        }
    }

    /// With `CONNECT_RECON_BENCH_TIMELINES=DIR`, writes every request of a run to `DIR/timeline-<name>.tsv`, for
    /// reading its critical path: start, end, path and query.
    static func writeTimeline(_ timeline: TimelineTransport, name: String) {
        guard let folder = ProcessInfo.processInfo.environment["CONNECT_RECON_BENCH_TIMELINES"] else { return }
        let lines = timeline.recorded.sorted { $0.start < $1.start }.map {
            let target = ResponseRecorder.target(of: $0.url)
            return String(format: "%.3f\t%.3f\t", $0.start, $0.end) + (target.removingPercentEncoding ?? target)
        }
        let file = URL(fileURLWithPath: folder).appendingPathComponent("timeline-\(name).tsv")
        try? (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    }

    /// Extracts `range` into the history at `location` at Stripe's limits, through a timeline of its requests.
    func observedExtraction(
        server: SandboxServer, range: Range<Int64>, now: Int64, into location: HistoryLocation,
        options: Extractor.Options
    ) async throws -> Observation {
        let transport = try Self.transport(concurrency: Self.concurrency)
        let timeline = TimelineTransport(transport)
        let before = server.requestStats
        let extraction = try await timedExtraction(
            server: server, from: range.lowerBound, to: range.upperBound, now: now, into: location,
            through: timeline, options: options)
        let after = server.requestStats
        transport.shutdown()
        var byEndpoint: [String: Int] = [:]
        for (endpoint, count) in after.byEndpoint {
            let made = count - (before.byEndpoint[endpoint] ?? 0)
            if made > 0 { byEndpoint[endpoint] = made }
        }
        return Observation(
            summary: extraction.summary, runID: extraction.runID, seconds: extraction.seconds,
            requests: after.total - before.total, byEndpoint: byEndpoint,
            rateLimited: after.rateLimited - before.rateLimited,
            expanded: after.expandedObjects - before.expandedObjects, timeline: timeline)
    }

    /// The extractor's options: the benchmark's concurrency, the look-back off unless `lookback` is given (with
    /// the CLI's default grace period).
    static func options(lookback: Int64 = 0) -> Extractor.Options {
        Extractor.Options(
            concurrency: concurrency, settleMargin: 300, lookbackSeconds: lookback, skippedTransferGrace: grace)
    }

    /// The week extracted into a fresh SQLite file and into a fresh PostgreSQL database, alternately, twice each:
    /// the fastest of each, and their ratio.
    private func compareHistories(
        server: SandboxServer, from: Int64, to: Int64, now: Int64, postgreSQL: PostgreSQLAddress,
        log: @escaping @Sendable (String) -> Void
    ) async throws -> [Figure] {
        var best: [String: Double] = [:]
        for round in 0..<2 {
            for name in ["SQLite", "PostgreSQL"] {
                let location =
                    name == "SQLite"
                    ? Self.freshSQLiteHistory(folder.appendingPathComponent("extraction-compare.sqlite").path)
                    : try BenchmarkDatabases.recreate("connect_recon_bench_extraction", server: postgreSQL)
                try await Task.sleep(for: .seconds(1.5))  // let the sandbox's rate windows empty
                let transport = try Self.transport(concurrency: Self.concurrency)
                let seconds = try await timedExtraction(
                    server: server, from: from, to: to, now: now, into: location, through: transport,
                    options: Self.options()
                ).seconds
                transport.shutdown()
                log("extraction [week into \(name), round \(round + 1)]: \(Format.seconds(seconds))")
                best[name] = min(best[name] ?? .infinity, seconds)
            }
        }
        let sqlite = best["SQLite"] ?? 0
        let postgreSQLSeconds = best["PostgreSQL"] ?? 0
        return [
            Figure(
                "the week into SQLite / into PostgreSQL (fastest of 2 each)",
                "\(Format.seconds(sqlite)) / \(Format.seconds(postgreSQLSeconds))"),
            Figure.atMost(
                "PostgreSQL's time against SQLite's", postgreSQLSeconds / sqlite, 1.10, format: Format.ratio,
                targetText: "≤ 1.10×"),
        ]
    }

    /// One extraction of `[from, to)` into the history at `location` (empty, or as earlier runs left it), recorded
    /// as a completed run, its requests through `transport` at Stripe's limits (unlimited unless `limited`); timed.
    func timedExtraction(
        server: SandboxServer, from: Int64, to: Int64, now: Int64, into location: HistoryLocation,
        through transport: any HTTPTransport, options: Extractor.Options, limited: Bool = true
    ) async throws -> (summary: ExtractionSummary, seconds: Double, runID: Int64) {
        let store = try HistoryStore.open(location)
        let runID = try Self.beginRun(store, from: from, to: to, now: now, apiBase: server.baseURL.absoluteString)
        let client = try Self.client(
            server, transport: transport, global: limited ? Self.globalLimit : 1e9,
            endpoint: limited ? Self.endpointLimit : 1e9)
        let extractor = Extractor(
            client: client, store: store, options: options, logger: Logger(label: "bench.extract"))
        let watch = Stopwatch()
        let summary = try await extractor.extract(from: from, to: to, runID: runID, now: now)
        let seconds = watch.seconds
        try store.runs.finishRun(runID, status: .completed, finishedAt: now, message: nil, details: nil)
        return (summary, seconds, runID)
    }

    /// The SQLite history at `path`, its files removed first so that it starts empty.
    static func freshSQLiteHistory(_ path: String) -> HistoryLocation {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return .sqliteFile(path: path)
    }

    // MARK: - Wiring

    static func beginRun(_ store: HistoryStore, from: Int64, to: Int64, now: Int64, apiBase: String) throws -> Int64 {
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: TimeInterval(from)), to: Date(timeIntervalSince1970: TimeInterval(to)),
            timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        try store.runs.claimMode(.test)
        return try store.runs.beginRun(
            RunStart(
                command: "extract", range: range, mode: .test, toolVersion: "bench", stripeVersion: stripeVersion,
                apiBase: apiBase, startedAt: now, pid: getpid())
        ).runID
    }

    /// A sandbox world of `charges` over `days` days and `hours` hours, served with Stripe's latency and limits.
    static func sandboxAtStripesLimits(charges: Int, days: Int, hours: Int) -> SandboxOptions {
        var options = SandboxOptions()
        options.charges = charges
        options.days = days
        options.hours = hours
        options.latency = latency
        options.expansionLatency = expansionLatency
        options.rateLimit = globalLimit
        options.endpointRateLimit = endpointLimit
        return options
    }

    static func transport(concurrency: Int) throws -> CurlHTTPTransport {
        try CurlHTTPTransport(
            configuration: CurlTransportConfiguration(
                connectTimeout: .seconds(10), requestTimeout: .seconds(30), maxConcurrentRequests: concurrency,
                userAgent: "connect-recon-bench"))
    }

    static func client(
        _ server: SandboxServer, transport: any HTTPTransport, global: Double, endpoint: Double
    ) throws -> StripeClient {
        StripeClient(
            configuration: StripeClientConfiguration(
                baseURL: server.baseURL, key: try APIKey(key), stripeVersion: stripeVersion,
                retryPolicy: RetryPolicy(maxRetries: 6)),
            transport: transport, budget: RequestBudget(globalRate: global, endpointRate: endpoint),
            logger: Logger(label: "bench.client"))
    }
}

/// How the common open-source extractors page: one request in flight, one list after another, `limit=100`
/// and `starting_after`, over the same range and with the same expansion, then the balance transactions of each
/// automatic payout of the range (`?payout=`, which no window can replace). Each page is decoded but not stored,
/// and no other follow-up is made, so its time is a lower bound for such an extractor.
struct SequentialPager {
    let server: SandboxServer
    let from: Int64
    let to: Int64

    struct Outcome {
        var requests = 0
        var items = 0
        var seconds = 0.0
    }

    func run() async throws -> Outcome {
        let transport = try ExtractionBenchmark.transport(concurrency: 1)
        defer { transport.shutdown() }
        let client = try ExtractionBenchmark.client(
            server, transport: transport, global: ExtractionBenchmark.globalLimit,
            endpoint: ExtractionBenchmark.endpointLimit)
        var outcome = Outcome()
        let watch = Stopwatch()
        try await page(Charge.self, "/v1/charges", expand: ["data.payment_intent"], client, &outcome)
        try await page(Transfer.self, "/v1/transfers", expand: [], client, &outcome)
        try await page(ApplicationFee.self, "/v1/application_fees", expand: [], client, &outcome)
        try await page(BalanceTransaction.self, "/v1/balance_transactions", expand: [], client, &outcome)
        try await page(Dispute.self, "/v1/disputes", expand: [], client, &outcome)
        try await page(Refund.self, "/v1/refunds", expand: [], client, &outcome)
        let payouts = try await page(Payout.self, "/v1/payouts", expand: [], client, &outcome)
        for payout in payouts where payout.automatic {
            try await page(
                BalanceTransaction.self, "/v1/balance_transactions", expand: [], filter: [("payout", payout.id)],
                client, &outcome)
        }
        outcome.seconds = watch.seconds
        return outcome
    }

    /// Pages one list to its end: over the range's `created` window, or, with a `filter`, the whole filtered list.
    /// Returns its items.
    @discardableResult
    private func page<Item: StripeObject>(
        _ type: Item.Type, _ path: String, expand: [String], filter: [(String, String)] = [],
        _ client: StripeClient, _ outcome: inout Outcome
    ) async throws -> [Item] {
        var cursor: String?
        var items: [Item] = []
        while true {
            var query: [(String, String)] = [("limit", "100")]
            query += filter.isEmpty ? [("created[gte]", String(from)), ("created[lt]", String(to))] : filter
            if let cursor { query.append(("starting_after", cursor)) }
            query += expand.map { ("expand[]", $0) }
            let page = try await client.listPage(type, path: path, query: query)
            outcome.requests += 1
            outcome.items += page.items.count
            items += page.items.map(\.object)
            guard page.hasMore, let last = page.lastID else { return items }
            cursor = last
        }
    }
}

/// Passes requests through and remembers when each started and ended, to show how evenly the budget was used.
final class TimelineTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let started = ContinuousClock.now
    private let events = Mutex<[(path: String, url: URL, start: Double, end: Double)]>([])

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let start = (ContinuousClock.now - started).inSeconds
        defer {
            let end = (ContinuousClock.now - started).inSeconds
            let path = request.url.path
            events.withLock { $0.append((path, request.url, start, end)) }
        }
        return try await inner.get(request)
    }

    /// Requests started per second to `path` (list endpoints only), and the time the last response came.
    func histogram(path: String) -> (perSecond: [Int], lastEnd: Double, firstStart: Double) {
        let all = events.withLock { $0 }
        let matching = all.filter { $0.path == path }
        var buckets = [Int](repeating: 0, count: Int((all.map(\.end).max() ?? 0).rounded(.up)) + 1)
        for event in matching { buckets[Int(event.start)] += 1 }
        return (buckets, all.map(\.end).max() ?? 0, all.map(\.start).min() ?? 0)
    }

    /// Every request so far: its path, URL, and when it started and ended.
    var recorded: [(path: String, url: URL, start: Double, end: Double)] { events.withLock { $0 } }

    /// How many requests `isCounted` picks, by their path and query.
    func count(where isCounted: (_ path: String, _ query: [URLQueryItem]) -> Bool) -> Int {
        events.withLock { $0 }.count { event in
            isCounted(event.path, URLComponents(url: event.url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
        }
    }

    /// One path's requests: how many, when the first started and the last ended, and the mean round trip.
    struct Span {
        var path: String
        var requests = 0
        var firstStart = Double.infinity
        var lastEnd = 0.0
        var totalRoundTrip = 0.0
        var meanRoundTrip: Double { totalRoundTrip / Double(max(requests, 1)) }
    }

    /// The requests grouped by `group` of their path, the group whose last request ended last first.
    func spans(groupedBy group: (String) -> String) -> [Span] {
        var byGroup: [String: Span] = [:]
        for event in events.withLock({ $0 }) {
            let key = group(event.path)
            var span = byGroup[key] ?? Span(path: key)
            span.requests += 1
            span.firstStart = min(span.firstStart, event.start)
            span.lastEnd = max(span.lastEnd, event.end)
            span.totalRoundTrip += event.end - event.start
            byGroup[key] = span
        }
        return byGroup.values.sorted { $0.lastEnd > $1.lastEnd }
    }

    /// When the last list request started and the first follow-up (any other path) started.
    func phases(listPaths: Set<String>) -> (lastListStart: Double, lastListEnd: Double, followUps: Int) {
        let all = events.withLock { $0 }
        let lists = all.filter { listPaths.contains($0.path) }
        return (lists.map(\.start).max() ?? 0, lists.map(\.end).max() ?? 0, all.count - lists.count)
    }
}
