import Foundation
import Logging
import ReconCore

/// How the client talks to Stripe.
public struct StripeClientConfiguration: Sendable {
    /// `https://api.stripe.com`, or a Stripe-compatible server.
    public var baseURL: URL
    public var key: APIKey
    /// Pinned on every request as `Stripe-Version`.
    public var stripeVersion: String
    public var retryPolicy: RetryPolicy

    public init(baseURL: URL, key: APIKey, stripeVersion: String, retryPolicy: RetryPolicy) {
        self.baseURL = baseURL
        self.key = key
        self.stripeVersion = stripeVersion
        self.retryPolicy = retryPolicy
    }
}

/// One page of a list: each item decoded, with its node on the page's ``JSONTape`` (from which its JSON is written,
/// and the objects embedded in it are found and decoded, without reading the page again).
public struct ListPage<Item: StripeObject>: Sendable {
    /// The page's response body, parsed once.
    public var tape: JSONTape
    public var items: [(object: Item, node: Int)]
    public var hasMore: Bool
    public var requestID: String?

    /// The id to pass as `starting_after` for the next page.
    public var lastID: String? { items.last?.object.id }
}

/// Counts of what the client did, for the run's summary and the benchmarks.
public struct ClientStatistics: Sendable, Equatable {
    public var requests = 0
    public var retries = 0
    public var rateLimited = 0
    public var serverErrors = 0
    public var transportErrors = 0

    public init() {}
}

/// Reads Stripe's API: GET with retries, rate budget, pinned version and Bearer key.
///
/// Every request passes the ``RequestBudget`` first; failures are retried per ``RetryPolicy``; what still fails
/// becomes a ``StripeClientError`` naming the endpoint and `Request-Id`. Each failed attempt is logged with
/// its `Request-Id`; the key never is.
public final class StripeClient: Sendable {
    public let configuration: StripeClientConfiguration
    private let transport: any HTTPTransport
    private let budget: RequestBudget
    private let logger: Logger
    private let statistics = Counter()
    /// What the back-off between retries sleeps on.
    private let clock: ElapsedClock

    /// - Parameter clock: what the back-off between retries sleeps on: the continuous clock, or a test's own.
    public init<C: Clock>(
        configuration: StripeClientConfiguration, transport: any HTTPTransport, budget: RequestBudget, logger: Logger,
        clock: C = ContinuousClock()
    ) where C.Duration == Duration {
        self.configuration = configuration
        self.transport = transport
        self.budget = budget
        self.logger = logger
        self.clock = ElapsedClock(clock)
    }

    /// What the client has done so far.
    public var stats: ClientStatistics { get async { await statistics.value } }

    /// The requests per second one endpoint may take (``RequestBudget/endpointRate``): with the round trip it
    /// tells how many cursors keep an endpoint busy.
    public var endpointRate: Double { budget.endpointRate }

    /// Keeps `endpoint`'s rate free in the account's budget while it is busy (``RequestBudget/prioritize(endpoint:)``).
    public func prioritize(endpoint: String) async { await budget.prioritize(endpoint: endpoint) }

    // MARK: - Lists and retrieves

    /// One page of the list at `path` (`/v1/charges`) with `query`; `endpoint` names it for the budget, and
    /// `precedence` orders it among the endpoint's requests waiting (``RequestBudget/acquire(endpoint:precedence:)``).
    public func listPage<Item: StripeObject>(
        _ type: Item.Type, path: String, query: [(String, String)], endpoint: String? = nil, precedence: Int = 0
    ) async throws(StripeClientError) -> ListPage<Item> {
        let route = endpoint ?? path
        let response = try await send(path: path, query: query, endpoint: route, precedence: precedence)
        let requestID = response.header("request-id")
        let tape: JSONTape
        do {
            tape = try JSONTape([UInt8](response.body))
        } catch {
            throw .malformedResponse(
                endpoint: route, requestID: requestID, detail: "\(Self.describeBody(response)), not JSON: \(error)")
        }
        let root = JSONTape.root
        guard tape.isObject(root), let object = tape.member("object", of: root), tape.string(object) == "list" else {
            throw .malformedResponse(endpoint: route, requestID: requestID, detail: "the body is not a list object")
        }
        guard let hasMoreNode = tape.member("has_more", of: root) else {
            throw .malformedResponse(endpoint: route, requestID: requestID, detail: "the list has no has_more")
        }
        guard let hasMore = tape.bool(hasMoreNode) else {
            throw .malformedResponse(endpoint: route, requestID: requestID, detail: "has_more is not true or false")
        }
        guard let data = tape.member("data", of: root) else {
            throw .malformedResponse(endpoint: route, requestID: requestID, detail: "the list has no data")
        }
        guard tape.isArray(data) else {
            throw .malformedResponse(endpoint: route, requestID: requestID, detail: "data is not an array")
        }
        let decoder = StripeJSON.decoder()
        let elements = tape.elements(of: data)
        var items: [(object: Item, node: Int)] = []
        items.reserveCapacity(elements.count)
        for element in elements {
            do {
                items.append((try decoder.decode(Item.self, from: tape, at: element), element))
            } catch {
                let reason =
                    tape.oversizedInteger(in: element).map {
                        "'\($0.key)' holds \($0.literal), which does not fit in 64 bits (no real Stripe amount does)"
                    } ?? StripeJSON.describe(error)
                throw .malformedResponse(
                    endpoint: route, requestID: requestID,
                    detail: "item \(items.count + 1) is not a valid \(Item.objectType): \(reason)")
            }
        }
        if hasMore && items.isEmpty {
            throw .brokenPagination(endpoint: route, requestID: requestID, detail: "has_more is true but data is empty")
        }
        return ListPage(tape: tape, items: items, hasMore: hasMore, requestID: requestID)
    }

    /// One object by id, with its response parsed once (the object is its root node), or `nil` when Stripe answers
    /// 404 (the caller records the gap).
    public func retrieve<Object: StripeObject>(
        _ type: Object.Type, path: String, query: [(String, String)] = [], endpoint: String
    ) async throws(StripeClientError) -> (object: Object, tape: JSONTape)? {
        let response: HTTPResponse
        do {
            response = try await send(path: path, query: query, endpoint: endpoint)
        } catch let error {
            if error.status == 404 { return nil }
            throw error
        }
        do {
            let tape = try JSONTapeDecoder.tape(response.body)
            return (try StripeJSON.decoder().decode(Object.self, from: tape, at: JSONTape.root), tape)
        } catch {
            throw .malformedResponse(
                endpoint: endpoint, requestID: response.header("request-id"),
                detail: "not a valid \(Object.objectType): \(StripeJSON.describe(error))")
        }
    }

    /// The platform's balance now (`GET /v1/balance`), with the moment Stripe answered (its response's `Date`, Unix
    /// seconds; the local clock's `now` when the header is missing or unreadable) and the response's JSON.
    public func balance(now: Int64) async throws(StripeClientError) -> (
        balance: StripeBalance, takenAt: Int64, json: String
    ) {
        let endpoint = "/v1/balance"
        let response = try await send(path: endpoint, query: [], endpoint: endpoint)
        do {
            let tape = try JSONTapeDecoder.tape(response.body)
            let balance = try StripeJSON.decoder().decode(StripeBalance.self, from: tape, at: JSONTape.root)
            let takenAt = response.header("date").flatMap(Self.httpDate) ?? now
            return (balance, takenAt, String(decoding: response.body, as: UTF8.self))
        } catch {
            throw .malformedResponse(
                endpoint: endpoint, requestID: response.header("request-id"),
                detail: "not a valid balance: \(StripeJSON.describe(error))")
        }
    }

    /// An HTTP date (`Sat, 28 Nov 2026 00:30:07 GMT`, RFC 9110's IMF-fixdate) as Unix seconds.
    static func httpDate(_ text: String) -> Int64? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text).map { Int64($0.timeIntervalSince1970.rounded(.down)) }
    }

    // MARK: - Sending with retries

    /// Sends a GET, retrying what is worth retrying; returns a 2xx response or throws. `precedence`: its order
    /// among the endpoint's requests waiting for the budget.
    func send(
        path: String, query: [(String, String)], endpoint: String, precedence: Int = 0
    ) async throws(StripeClientError) -> HTTPResponse {
        try await send(makeRequest(path: path, query: query), endpoint: endpoint, precedence: precedence)
    }

    /// Sends `request`, the same one on every attempt (a POST's `Idempotency-Key` included), retrying what is worth
    /// retrying; returns a 2xx response or throws.
    func send(
        _ request: HTTPRequest, endpoint: String, precedence: Int = 0
    ) async throws(StripeClientError) -> HTTPResponse {
        let policy = configuration.retryPolicy
        var attempt = 0
        while true {
            attempt += 1
            await budget.acquire(endpoint: endpoint, precedence: precedence)
            if Task.isCancelled {
                throw Self.cancelled(endpoint: endpoint, attempts: attempt - 1, method: request.method)
            }
            await statistics.add { $0.requests += 1 }
            switch await attemptOnce(request, endpoint: endpoint, attempt: attempt) {
            case .success(let response):
                return response
            case .failure(let error, let retryable, let retryAfter):
                guard retryable, attempt <= policy.maxRetries else { throw error }
                await statistics.add { $0.retries += 1 }
                let wait = policy.delay(beforeRetry: attempt, retryAfter: retryAfter, random: Double.random(in: 0...1))
                do {
                    try await clock.sleep(for: wait)
                } catch {
                    throw Self.cancelled(endpoint: endpoint, attempts: attempt, method: request.method)
                }
            }
        }
    }

    /// The error of a request given up because the run was cancelled (interrupted, or another request failed):
    /// never retried.
    static func cancelled(endpoint: String, attempts: Int, method: HTTPRequest.Method = .get) -> StripeClientError {
        .transport(
            .invalidRequest("the run was cancelled before the request could be sent"), endpoint: endpoint,
            attempts: attempts, method: method)
    }

    private enum Attempt {
        case success(HTTPResponse)
        case failure(StripeClientError, retryable: Bool, retryAfter: Duration?)
    }

    /// One try: the response, or the error with whether another try may help.
    private func attemptOnce(_ request: HTTPRequest, endpoint: String, attempt: Int) async -> Attempt {
        let response: HTTPResponse
        do {
            response = try await transport.get(request)
        } catch {
            await statistics.add { $0.transportErrors += 1 }
            logger.warning(
                "Stripe request got no complete response",
                metadata: ["endpoint": "\(endpoint)", "error": "\(error.detail)", "attempt": "\(attempt)"])
            return .failure(
                .transport(error, endpoint: endpoint, attempts: attempt, method: request.method),
                retryable: error.isRetryable, retryAfter: nil)
        }
        if (200..<300).contains(response.status) { return .success(response) }
        let requestID = response.header("request-id")
        logger.warning(
            "Stripe request failed",
            metadata: [
                "method": "\(request.method.rawValue)", "endpoint": "\(endpoint)", "status": "\(response.status)",
                "request_id": "\(requestID ?? "-")",
                "attempt": "\(attempt)",
            ])
        if response.status == 429 {
            await statistics.add { $0.rateLimited += 1 }
            await budget.rateLimited(endpoint: endpoint, reason: response.header("stripe-rate-limited-reason"))
        } else if response.status >= 500 {
            await statistics.add { $0.serverErrors += 1 }
        }
        let error = StripeClientError.http(
            status: response.status, endpoint: endpoint, requestID: requestID, error: Self.errorSummary(response),
            attempts: attempt, method: request.method)
        let retryable = RetryPolicy.isRetryable(
            status: response.status, shouldRetryHeader: response.header("stripe-should-retry"))
        return .failure(error, retryable: retryable, retryAfter: RetryPolicy.retryAfter(response.header("retry-after")))
    }

    /// The GET request for `path` and `query`, with the pinned version and the key.
    func makeRequest(path: String, query: [(String, String)]) -> HTTPRequest {
        var text = configuration.baseURL.absoluteString + path
        if !query.isEmpty {
            text += "?" + query.map { "\(Self.percentEncode($0.0))=\(Self.percentEncode($0.1))" }.joined(separator: "&")
        }
        // The base URL was validated; percent-encoding leaves only URL-safe characters in path and query.
        let url = URL(string: text) ?? configuration.baseURL
        return HTTPRequest(
            url: url,
            headers: [
                ("Authorization", configuration.key.authorizationHeaderValue),
                ("Stripe-Version", configuration.stripeVersion),
                ("Accept", "application/json"),
            ])
    }

    // MARK: - Helpers

    private static let unreserved: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))

    /// RFC 3986 percent-encoding of everything but unreserved characters (`created[gte]` → `created%5Bgte%5D`).
    static func percentEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                result.append(Character(UnicodeScalar(byte)))
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    static func errorSummary(_ response: HTTPResponse) -> StripeErrorSummary? {
        guard let body = try? StripeJSON.decoder().decode(StripeErrorBody.self, from: response.body) else {
            return nil
        }
        return StripeErrorSummary(
            type: body.type.rawValue, code: body.code, message: body.message.map { String($0.prefix(300)) },
            param: body.param)
    }

    /// A short, safe description of a body that is not JSON (an HTML error page, say).
    static func describeBody(_ response: HTTPResponse) -> String {
        let type = response.header("content-type") ?? "no content type"
        if response.body.isEmpty { return "an empty body (\(type))" }
        let start = String(decoding: response.body.prefix(60), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ")
        return "a \(response.body.count)-byte \(type) body starting '\(start)'"
    }
}

/// Thread-safe statistics.
actor Counter {
    var value = ClientStatistics()
    func add(_ change: @Sendable (inout ClientStatistics) -> Void) { change(&value) }
}
