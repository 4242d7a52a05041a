import CurlTransport
import Extract
import Foundation
import History
import Logging
import ReconCore
import Sandbox
import StripeAPI
import Synchronization
import TestSupport

/// A sandbox, a history in a temporary folder, and a client wired to both: for the tests that extract a sandbox
/// world into a history (`ExtractTests`, and `HistoryTests`' reconcile in parts). Not part of the product.
public final class ExtractionHarness {
    public static let key = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
    /// 2026-11-01, the sandbox's default first day.
    public static let start: Int64 = 1_793_491_200
    public static let day: Int64 = 86_400

    public let server: SandboxServer
    public let folder: URL

    public init(_ configure: (inout SandboxOptions) -> Void = { _ in }) async throws {
        var options = SandboxOptions()
        options.charges = 300
        options.days = 10
        configure(&options)
        server = try await SandboxServer.start(options)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("extract-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    public func close() async throws {
        try await server.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    public func store(_ name: String = "history") throws -> HistoryStore {
        try HistoryStore.open(path: folder.appendingPathComponent("\(name).sqlite").path)
    }

    /// A new, empty history of `backend`: a file in the harness's folder, or a database on the test server.
    public func store(_ backend: TestHistoryBackend) throws -> HistoryStore {
        switch backend {
        case .sqlite: try store()
        case .postgreSQL: try HistoryStore.open(try HistoryLocation(try TestHistoryBackend.newDatabase()))
        }
    }

    public func client(
        globalRate: Double = 1_000, endpointRate: Double = 1_000, maxRetries: Int = 8,
        transport: (any HTTPTransport)? = nil
    ) throws -> StripeClient {
        let curl = try transport ?? Self.curl()
        return StripeClient(
            configuration: StripeClientConfiguration(
                baseURL: server.baseURL, key: try APIKey(Self.key), stripeVersion: "2026-07-29.dahlia",
                retryPolicy: RetryPolicy(
                    maxRetries: maxRetries, baseDelay: .milliseconds(10), maxDelay: .milliseconds(200))),
            transport: curl, budget: RequestBudget(globalRate: globalRate, endpointRate: endpointRate),
            logger: Logger(label: "extract-tests"))
    }

    public static func curl() throws -> CurlHTTPTransport {
        try CurlHTTPTransport(
            configuration: CurlTransportConfiguration(
                connectTimeout: .seconds(5), requestTimeout: .seconds(5), maxConcurrentRequests: 16))
    }

    /// Records a run over `[from, to)` and extracts it, at `now` (30 days after `to` unless given).
    @discardableResult
    public func extract(
        store: HistoryStore, client: StripeClient, from: Int64 = start, to: Int64 = start + 10 * day,
        concurrency: Int = 8, windowSeconds: Int64 = 7 * day, now: Int64? = nil,
        payoutCursorPages: Int = PayoutListing.cursorPages
    ) async throws -> (runID: Int64, summary: ExtractionSummary) {
        let now = now ?? to + 30 * Self.day
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: TimeInterval(from)), to: Date(timeIntervalSince1970: TimeInterval(to)),
            timeZone: TimeZone(identifier: "UTC")!)
        let (runID, _) = try store.runs.beginRun(
            RunStart(
                command: "extract", range: range, mode: .test, toolVersion: "test", stripeVersion: "2026-07-29.dahlia",
                apiBase: server.baseURL.absoluteString, startedAt: now, pid: 1))
        let extractor = Extractor(
            client: client, store: store,
            options: Extractor.Options(
                concurrency: concurrency, settleMargin: 300, windowSeconds: windowSeconds,
                payoutCursorPages: payoutCursorPages),
            logger: Logger(label: "extract-tests"))
        let summary = try await extractor.extract(from: from, to: to, runID: runID, now: now)
        try store.runs.finishRun(runID, status: .completed, finishedAt: now, message: nil, details: nil)
        return (runID, summary)
    }

    /// Every object of every kind in a history, `kind → id → raw JSON`.
    public static func contents(_ store: HistoryStore) throws -> [ObjectKind: [String: String]] {
        var result: [ObjectKind: [String: String]] = [:]
        for kind in ObjectKind.allCases { result[kind] = try store.objects.rawObjects(of: kind) }
        return result
    }

    /// The ids a plain sequential pager finds for a list over `[from, to)`: the independent oracle.
    public static func referenceIDs<Item: StripeObject>(
        client: StripeClient, path: String, type: Item.Type, from: Int64, to: Int64
    ) async throws -> Set<String> {
        var ids = Set<String>()
        var cursor: String?
        repeat {
            var query = [("limit", "100"), ("created[gte]", "\(from)"), ("created[lt]", "\(to)")]
            if let cursor { query.append(("starting_after", cursor)) }
            let page = try await client.listPage(type, path: path, query: query)
            ids.formUnion(page.items.map(\.object.id))
            cursor = page.hasMore ? page.lastID : nil
        } while cursor != nil
        return ids
    }
}

/// A transport that works for `limit` requests and then fails every request, like a process that died.
public final class DyingTransport: HTTPTransport, Sendable {
    private let inner: any HTTPTransport
    private let remaining: Mutex<Int>

    public init(_ inner: any HTTPTransport, limit: Int) {
        self.inner = inner
        self.remaining = Mutex(limit)
    }

    public func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let alive = remaining.withLock { remaining in
            remaining -= 1
            return remaining >= 0
        }
        guard alive else { throw .invalidRequest("the process was killed") }
        return try await inner.get(request)
    }
}
