import CurlTransport
import Extract
import Foundation
import History
import Logging
import ReconCore
import Sandbox
import StripeAPI
import Synchronization

/// Measurement (a): the extractor against a sandbox with Stripe's latency and limits, against the bound those
/// limits set, and side by side with a sequential pager of the same lists on the same sandbox.
struct ExtractionBenchmark {
    /// Platform charges in the sandbox's world.
    var charges: Int
    var days: Int
    /// Where the history of the run goes (kept for measurement (d)).
    var folder: URL

    static let latency: Duration = .milliseconds(150)
    static let globalLimit = 100.0
    static let endpointLimit = 25.0
    static let concurrency = 32
    static let key = "sk_test_connectReconBench0000000000"
    static let stripeVersion = "2026-07-29.dahlia"

    struct Result {
        var figures: [Figure]
        /// The history the extractor filled, for measurement (d).
        var databasePath: String
        var from: Int64
        var to: Int64
    }

    func run(log: @escaping @Sendable (String) -> Void) async throws -> Result {
        var options = SandboxOptions()
        options.charges = charges
        options.days = days
        options.latency = Self.latency
        options.rateLimit = Self.globalLimit
        options.endpointRateLimit = Self.endpointLimit
        let server = try await SandboxServer.start(options)
        let from = Int64(server.world.start.timeIntervalSince1970)
        let to = Int64(server.world.end.timeIntervalSince1970)
        log("extraction: sandbox \(server.summary)")

        // The extractor, wired as `connect-recon extract` wires it, with a live key's budget.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let databasePath = folder.appendingPathComponent("extraction.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databasePath + suffix) }
        let store = try HistoryStore.open(path: databasePath)
        let runID = try Self.beginRun(store, from: from, to: to, apiBase: server.baseURL.absoluteString)
        let transport = try Self.transport(concurrency: Self.concurrency)
        let timeline = TimelineTransport(transport)
        let client = try Self.client(server, transport: timeline, global: Self.globalLimit, endpoint: Self.endpointLimit)
        let extractor = Extractor(
            client: client, store: store,
            options: Extractor.Options(concurrency: Self.concurrency, settleMargin: 300),
            logger: Logger(label: "bench.extract"))
        let before = server.requestStats
        let watch = Stopwatch()
        let summary = try await extractor.extract(from: from, to: to, runID: runID, now: to + 30 * 86_400)
        let seconds = watch.seconds
        let after = server.requestStats
        transport.shutdown()
        try store.finishRun(runID, status: .completed, finishedAt: to + 30 * 86_400, message: nil, details: nil)
        let clientStats = await client.stats
        var byEndpoint: [String: Int] = [:]
        for (endpoint, count) in after.byEndpoint { byEndpoint[endpoint] = count - (before.byEndpoint[endpoint] ?? 0) }
        let requests = after.total - before.total
        let rateLimited = after.rateLimited - before.rateLimited
        let busiest = byEndpoint.max { $0.value < $1.value } ?? (key: "none", value: 0)
        let roundTrip = Double(Self.latency.components.attoseconds) / 1e18 + Double(Self.latency.components.seconds)
        let bound = max(Double(requests) / Self.globalLimit, Double(busiest.value) / Self.endpointLimit) + roundTrip
        var objects = 0
        for kind in ObjectKind.allCases { objects += try store.count(of: kind) }
        let busiestPath = String(busiest.key.split(separator: " ").last ?? "")
        let histogram = timeline.histogram(path: busiestPath)
        let phases = timeline.phases(listPaths: [
            "/v1/charges", "/v1/transfers", "/v1/application_fees", "/v1/balance_transactions", "/v1/disputes",
            "/v1/refunds",
        ])
        for path in ["/v1/charges", "/v1/transfers", "/v1/application_fees", "/v1/refunds"] {
            log("extraction: \(path) per second: \(timeline.histogram(path: path).perSecond.map(String.init).joined(separator: " "))")
        }
        log(
            "extraction: \(busiestPath) requests started per second: \(histogram.perSecond.map(String.init).joined(separator: " ")); "
                + "last list request started at \(Format.seconds(phases.lastListStart)), answered at "
                + "\(Format.seconds(phases.lastListEnd)); \(phases.followUps) other requests; last answer at "
                + "\(Format.seconds(histogram.lastEnd))")
        log(
            "extraction: \(requests) requests in \(Format.seconds(seconds)), bound \(Format.seconds(bound)); "
                + "per endpoint: \(byEndpoint.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")

        // The sequential pager: one request in flight, one list after another, on the same sandbox.
        try await Task.sleep(for: .seconds(1.5))  // let the sandbox's rate windows empty
        let sequential = try await SequentialPager(server: server, from: from, to: to).run()
        log("sequential pager: \(sequential.requests) requests, \(sequential.items) items in \(Format.seconds(sequential.seconds))")
        try await server.shutdown()

        let fraction = bound / seconds
        let figures: [Figure] = [
            Figure(
                "world", "\(Format.count(charges)) charges over \(days) days, \(Format.count(objects)) objects stored",
                target: "latency 150 ms, 100/s, 25/s per endpoint"),
            Figure("extraction wall time", Format.seconds(seconds), target: "", ratio: ""),
            Figure(
                "requests made (busiest endpoint)",
                "\(Format.count(requests)) (\(busiest.key): \(Format.count(busiest.value)))"),
            Figure(
                "bound max(req/100, busiest/25) + 1 RTT", Format.seconds(bound)),
            Figure.atLeast("share of the bound achieved", fraction, 0.95, format: Format.percent),
            Figure(
                "429 answers (client retries)", "\(rateLimited) (\(clientStats.retries) retries)",
                target: "no run lost", verdict: .met),
            Figure(
                "requests per 100 objects stored", String(format: "%.2f", Double(requests) * 100 / Double(max(objects, 1))),
                target: "report (fewer is faster)",
                ratio: String(
                    format: "sequential pager: %.2f", Double(sequential.requests) * 100 / Double(max(objects, 1)))),
            Figure(
                "follow-ups by id / in rounds", "\(summary.followUps) in \(summary.followUpRounds) rounds"),
            Figure(
                "sequential pager (6 range lists, no follow-ups, no storage)",
                "\(Format.seconds(sequential.seconds)), \(Format.count(sequential.requests)) requests",
                target: "", ratio: Format.ratio(sequential.seconds / seconds) + " speed-up"),
        ]
        return Result(figures: figures, databasePath: databasePath, from: from, to: to)
    }

    // MARK: - Wiring

    static func beginRun(_ store: HistoryStore, from: Int64, to: Int64, apiBase: String) throws -> Int64 {
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: TimeInterval(from)), to: Date(timeIntervalSince1970: TimeInterval(to)),
            timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        try store.claimMode("test")
        return try store.beginRun(
            RunStart(
                command: "extract", range: range, mode: "test", toolVersion: "bench", stripeVersion: stripeVersion,
                apiBase: apiBase, startedAt: to + 30 * 86_400, pid: getpid())
        ).runID
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
/// and `starting_after`, over the same range and with the same expansion. Each page is decoded but not stored,
/// and no follow-up is made, so its time is a lower bound for such an extractor.
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
        outcome.seconds = watch.seconds
        return outcome
    }

    private func page<Item: StripeObject>(
        _ type: Item.Type, _ path: String, expand: [String], _ client: StripeClient, _ outcome: inout Outcome
    ) async throws {
        var cursor: String?
        while true {
            var query: [(String, String)] = [
                ("limit", "100"), ("created[gte]", String(from)), ("created[lt]", String(to)),
            ]
            if let cursor { query.append(("starting_after", cursor)) }
            query += expand.map { ("expand[]", $0) }
            let page = try await client.listPage(type, path: path, query: query)
            outcome.requests += 1
            outcome.items += page.items.count
            guard page.hasMore, let last = page.lastID else { return }
            cursor = last
        }
    }
}

/// Passes requests through and remembers when each started and ended, to show how evenly the budget was used.
final class TimelineTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let started = ContinuousClock.now
    private let events = Mutex<[(path: String, start: Double, end: Double)]>([])

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let start = Self.seconds(ContinuousClock.now - started)
        defer {
            let end = Self.seconds(ContinuousClock.now - started)
            let path = request.url.path
            events.withLock { $0.append((path, start, end)) }
        }
        return try await inner.get(request)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Requests started per second to `path` (list endpoints only), and the time the last response came.
    func histogram(path: String) -> (perSecond: [Int], lastEnd: Double, firstStart: Double) {
        let all = events.withLock { $0 }
        let matching = all.filter { $0.path == path }
        var buckets = [Int](repeating: 0, count: Int((all.map(\.end).max() ?? 0).rounded(.up)) + 1)
        for event in matching { buckets[Int(event.start)] += 1 }
        return (buckets, all.map(\.end).max() ?? 0, all.map(\.start).min() ?? 0)
    }

    /// When the last list request started and the first follow-up (any other path) started.
    func phases(listPaths: Set<String>) -> (lastListStart: Double, lastListEnd: Double, followUps: Int) {
        let all = events.withLock { $0 }
        let lists = all.filter { listPaths.contains($0.path) }
        return (lists.map(\.start).max() ?? 0, lists.map(\.end).max() ?? 0, all.count - lists.count)
    }
}
