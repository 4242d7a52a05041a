import Foundation
import Logging
import TestSupport
import Testing

@testable import StripeAPI

@Suite("Stripe client")
struct StripeClientTests {
    static let key = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"

    /// A client whose back-offs and budget waits pass on a clock of their own, in no real time.
    func client(_ transport: ScriptedTransport, maxRetries: Int = 3) throws -> StripeClient {
        try Self.client(
            transport,
            retryPolicy: RetryPolicy(maxRetries: maxRetries, baseDelay: .milliseconds(1), maxDelay: .milliseconds(5)),
            clock: ManualClock(advancesToEachSleeper: true))
    }

    /// A client of `transport` whose rate budget and back-offs run on `clock`.
    static func client(
        _ transport: ScriptedTransport, retryPolicy: RetryPolicy, clock: ManualClock
    ) throws -> StripeClient {
        let configuration = StripeClientConfiguration(
            baseURL: try #require(URL(string: "http://127.0.0.1:12111")), key: try APIKey(Self.key),
            stripeVersion: "2026-07-29.dahlia", retryPolicy: retryPolicy)
        return StripeClient(
            configuration: configuration, transport: transport,
            budget: RequestBudget(globalRate: 10_000, endpointRate: 10_000, clock: clock),
            logger: Logger(label: "test"), clock: clock)
    }

    static let transferJSON =
        #"{"id":"tr_1","object":"transfer","amount":877,"amount_reversed":0,"balance_transaction":"txn_1","created":1795132800,"currency":"usd","description":null,"destination":"acct_1","livemode":false,"metadata":{},"reversals":{"object":"list","data":[],"has_more":false,"url":"/v1/transfers/tr_1/reversals"},"reversed":false,"source_transaction":"ch_1","transfer_group":null}"#

    static func page(_ items: [String], hasMore: Bool) -> String {
        #"{"object": "list", "url": "/v1/transfers", "has_more": \#(hasMore), "data": [\#(items.joined(separator: ",\n  "))]}"#
    }

    @Test("requests carry the Bearer key, the pinned Stripe-Version and a percent-encoded query")
    func requestShape() async throws {
        let transport = ScriptedTransport([.respond(200, Self.page([], hasMore: false))])
        _ = try await client(transport).listPage(
            Transfer.self, path: "/v1/transfers",
            query: [("limit", "100"), ("created[gte]", "1795132800"), ("expand[]", "data.balance_transaction")])
        let request = try #require(transport.requests.first)
        #expect(
            request.url.absoluteString
                == "http://127.0.0.1:12111/v1/transfers?limit=100&created%5Bgte%5D=1795132800&expand%5B%5D=data.balance_transaction"
        )
        #expect(request.headers.contains { $0.name == "Authorization" && $0.value == "Bearer \(Self.key)" })
        #expect(request.headers.contains { $0.name == "Stripe-Version" && $0.value == "2026-07-29.dahlia" })
    }

    @Test("a list page keeps each item's JSON exactly as sent")
    func rawJSONIsExact() async throws {
        let second = Self.transferJSON.replacingOccurrences(of: "tr_1", with: "tr_2")
        let transport = ScriptedTransport([.respond(200, Self.page([Self.transferJSON, second], hasMore: true))])
        let page = try await client(transport).listPage(Transfer.self, path: "/v1/transfers", query: [])
        #expect(page.items.map(\.object.id) == ["tr_1", "tr_2"])
        #expect(
            page.items.map { String(decoding: page.tape.compact($0.node), as: UTF8.self) } == [
                Self.transferJSON, second,
            ])
        #expect(page.hasMore)
        #expect(page.lastID == "tr_2")
        #expect(page.requestID == "req_1")
    }

    @Test("has_more with no data is a broken list, not an endless loop")
    func hasMoreWithoutData() async throws {
        let transport = ScriptedTransport([.respond(200, Self.page([], hasMore: true))])
        await #expect(
            throws: StripeClientError.brokenPagination(
                endpoint: "/v1/transfers", requestID: "req_1", detail: "has_more is true but data is empty")
        ) {
            _ = try await client(transport).listPage(Transfer.self, path: "/v1/transfers", query: [])
        }
    }

    @Test(
        "bodies that are not Stripe's JSON are clear errors",
        arguments: [
            ("<html><body>502 Bad Gateway</body></html>", "text/html"),
            (#"{"object": "list", "has_more": false, "data": [{"id": "tr_1""#, "application/json"),
            (#"{"error": "nope"}"#, "application/json"),
            (#"{"object": "list", "has_more": "maybe", "data": []}"#, "application/json"),
            ("", "text/plain"),
        ])
    func malformedBodies(body: String, contentType: String) async throws {
        let transport = ScriptedTransport([.respond(200, body, headers: ["content-type": contentType])])
        let client = try client(transport)
        do {
            _ = try await client.listPage(Transfer.self, path: "/v1/transfers", query: [])
            Issue.record("a malformed body was accepted")
        } catch {
            guard case .malformedResponse(let endpoint, let requestID, _, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(endpoint == "/v1/transfers")
            #expect(requestID == "req_1")
            #expect(error.message.contains("api.base_url"))
        }
    }

    @Test("an item that does not decode names its position and the missing field")
    func badItem() async throws {
        let broken = Self.transferJSON.replacingOccurrences(of: #""amount":877,"#, with: "")
        let transport = ScriptedTransport([.respond(200, Self.page([Self.transferJSON, broken], hasMore: false))])
        await #expect {
            _ = try await client(transport).listPage(Transfer.self, path: "/v1/transfers", query: [])
        } throws: { error in
            (error as? StripeClientError)?.message.contains("item 2 is not a valid transfer: missing 'amount'") == true
        }
    }

    @Test("500, 409, 429 and connection errors are retried until they succeed")
    func retriesTransientFailures() async throws {
        let transport = ScriptedTransport([
            .respond(500, #"{"error":{"type":"api_error"}}"#), .fail(.connectionFailed("reset")),
            .respond(429, #"{"error":{"type":"invalid_request_error","code":"rate_limit"}}"#),
            .respond(409, "{}"), .fail(.truncated("short body")), .respond(200, Self.page([], hasMore: false)),
        ])
        let client = try client(transport, maxRetries: 5)
        _ = try await client.listPage(Transfer.self, path: "/v1/transfers", query: [])
        let stats = await client.stats
        #expect(stats.requests == 6)
        #expect(stats.retries == 5)
        #expect(stats.rateLimited == 1)
        #expect(stats.serverErrors == 1)
        #expect(stats.transportErrors == 2)
    }

    @Test("Stripe-Should-Retry: false is obeyed; true retries even a 400")
    func shouldRetryHeader() async throws {
        let noRetry = ScriptedTransport([.respond(503, "{}", headers: ["stripe-should-retry": "false"])])
        await #expect(throws: StripeClientError.self) {
            _ = try await client(noRetry).listPage(Transfer.self, path: "/v1/transfers", query: [])
        }
        #expect(noRetry.requestCount == 1)
        let retry = ScriptedTransport([
            .respond(400, "{}", headers: ["stripe-should-retry": "true"]), .respond(200, Self.page([], hasMore: false)),
        ])
        _ = try await client(retry).listPage(Transfer.self, path: "/v1/transfers", query: [])
        #expect(retry.requestCount == 2)
    }

    @Test("when the retry budget runs out, the error names the endpoint, status, attempts and Request-Id")
    func retryBudgetExhausted() async throws {
        let transport = ScriptedTransport(
            Array(
                repeating: .respond(500, #"{"error":{"type":"api_error","message":"Something went wrong"}}"#), count: 4)
        )
        let client = try client(transport, maxRetries: 3)
        do {
            _ = try await client.listPage(Transfer.self, path: "/v1/transfers", query: [])
            Issue.record("expected a failure")
        } catch {
            #expect(transport.requestCount == 4)
            #expect(
                error
                    == .http(
                        status: 500, endpoint: "/v1/transfers", requestID: "req_4",
                        error: StripeErrorSummary(
                            type: "api_error", code: nil, message: "Something went wrong", param: nil),
                        attempts: 4))
            #expect(
                error.message.contains("GET /v1/transfers failed with HTTP 500 after 4 attempts (Request-Id req_4)"))
            #expect(!error.isBadInput)
        }
    }

    @Test(
        "400, 401 and 403 are not retried and say what to fix",
        arguments: [
            (400, "/v1/charges", "check api.stripe_version", false),
            (401, "/v1/charges", "The API key was refused", true),
            (403, "/v1/application_fees", "lacks read access to application fees", true),
        ])
    func clientErrors(status: Int, path: String, advice: String, badInput: Bool) async throws {
        let body = #"{"error":{"type":"invalid_request_error","message":"Nope","param":"limit"}}"#
        let transport = ScriptedTransport([.respond(status, body)])
        let client = try client(transport)
        do {
            _ = try await client.listPage(Transfer.self, path: path, query: [])
            Issue.record("expected a failure")
        } catch {
            #expect(transport.requestCount == 1)
            #expect(error.message.contains(advice))
            #expect(error.message.contains("Nope (parameter limit)"))
            #expect(error.isBadInput == badInput)
            #expect(!error.message.contains(Self.key))
        }
    }

    @Test("TLS failures are never retried")
    func tlsNotRetried() async throws {
        let transport = ScriptedTransport([.fail(.tlsFailure("certificate verify failed"))])
        await #expect(
            throws: StripeClientError.transport(
                .tlsFailure("certificate verify failed"), endpoint: "/v1/transfers", attempts: 1)
        ) {
            _ = try await client(transport).listPage(Transfer.self, path: "/v1/transfers", query: [])
        }
    }

    @Test("a retrieve answered 404 is nil, not a crash")
    func retrieveNotFound() async throws {
        let transport = ScriptedTransport([
            .respond(404, #"{"error":{"type":"invalid_request_error","code":"resource_missing"}}"#),
            .respond(200, Self.transferJSON),
        ])
        let client = try client(transport)
        #expect(
            try await client.retrieve(Transfer.self, path: "/v1/transfers/tr_x", endpoint: "/v1/transfers/{id}") == nil)
        let found = try await client.retrieve(Transfer.self, path: "/v1/transfers/tr_1", endpoint: "/v1/transfers/{id}")
        #expect(found?.object.amount == 877)
        #expect(found.map { String(decoding: $0.tape.compact(), as: UTF8.self) } == Self.transferJSON)
    }
}

@Suite("Retry policy")
struct RetryPolicyTests {
    let policy = RetryPolicy(maxRetries: 6, baseDelay: .milliseconds(500), maxDelay: .seconds(20))

    @Test("backoff doubles its ceiling per retry, with full jitter, up to the maximum")
    func exponentialCeiling() {
        #expect(policy.delay(beforeRetry: 1, retryAfter: nil, random: 1) == .milliseconds(500))
        #expect(policy.delay(beforeRetry: 2, retryAfter: nil, random: 1) == .seconds(1))
        #expect(policy.delay(beforeRetry: 4, retryAfter: nil, random: 1) == .seconds(4))
        #expect(policy.delay(beforeRetry: 9, retryAfter: nil, random: 1) == .seconds(20))
        #expect(policy.delay(beforeRetry: 4, retryAfter: nil, random: 0.5) == .seconds(2))
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil, random: 0) == .zero)
    }

    @Test("Retry-After is a floor, capped at the maximum")
    func retryAfter() {
        #expect(policy.delay(beforeRetry: 1, retryAfter: .seconds(3), random: 0.1) == .seconds(3))
        #expect(policy.delay(beforeRetry: 1, retryAfter: .seconds(300), random: 0.1) == .seconds(20))
        #expect(RetryPolicy.retryAfter("2") == .seconds(2))
        #expect(RetryPolicy.retryAfter("0.5") == .milliseconds(500))
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == nil)
    }

    @Test(
        "which statuses are retried",
        arguments: [
            (500, nil, true), (502, nil, true), (409, nil, true), (429, nil, true), (400, nil, false),
            (401, nil, false), (403, nil, false), (404, nil, false), (500, "false", false), (400, "true", true),
        ] as [(Int, String?, Bool)])
    func retryableStatuses(status: Int, header: String?, retryable: Bool) {
        #expect(RetryPolicy.isRetryable(status: status, shouldRetryHeader: header) == retryable)
    }
}

@Suite("Request budget")
struct RequestBudgetTests {
    /// Any `rate + 1` consecutive starts span at least one second: no one-second window holds more than `rate`.
    func assertSlidingWindow(
        _ starts: [ManualClock.Instant], rate: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for index in starts.indices.dropLast(rate) {
            #expect(starts[index].duration(to: starts[index + rate]) >= .seconds(1), sourceLocation: sourceLocation)
        }
    }

    @Test("no one-second window holds more requests than the global rate")
    func globalRate() async {
        let clock = ManualClock(advancesToEachSleeper: true)
        let budget = RequestBudget(globalRate: 10, endpointRate: 1_000, margin: .zero, clock: clock)
        var starts: [ManualClock.Instant] = []
        for index in 0..<25 {
            await budget.acquire(endpoint: "/v1/e\(index % 3)")
            starts.append(clock.now)
        }
        assertSlidingWindow(starts, rate: 10)
        // Whole slots apart, and no slower than the rate allows: the 25th start is 24 slots after the first.
        #expect(starts.last == starts.first.map { $0.advanced(by: .milliseconds(2_400)) })
    }

    @Test("a cancelled run stops in its back-off instead of sleeping it out, and sends nothing more")
    func cancellationStopsTheBackOff() async throws {
        // Given a server that answers 500 (retryable) and asks for a minute before the retry
        let transport = ScriptedTransport([
            .respond(500, #"{"error":{"type":"api_error"}}"#, headers: ["retry-after": "60"])
        ])
        let clock = ManualClock()
        let client = try StripeClientTests.client(
            transport, retryPolicy: RetryPolicy(maxRetries: 5, baseDelay: .seconds(60), maxDelay: .seconds(60)),
            clock: clock)
        // When the run is cancelled while the client waits to retry (its clock never moves: only cancelling ends it)
        let task = Task { try await client.listPage(Transfer.self, path: "/v1/transfers", query: []) }
        await clock.waitForSleepers(1)
        task.cancel()
        // Then it fails at once with a request that is not retried, and the transport saw one request only
        let result = await task.result
        #expect(throws: StripeClient.cancelled(endpoint: "/v1/transfers", attempts: 1)) { try result.get() }
        #expect(transport.requestCount == 1)
    }

    @Test("a cancelled run stops waiting for the rate budget")
    func cancellationStopsTheBudgetWait() async throws {
        // Given an endpoint whose window is full, on a clock that moves only when told
        let clock = ManualClock()
        let budget = RequestBudget(globalRate: 1_000, endpointRate: 1, clock: clock)
        await budget.acquire(endpoint: "/v1/charges")
        // When a second request waits for it, the run is cancelled, and then the window passes
        let waiter = Task { await budget.acquire(endpoint: "/v1/charges") }
        await clock.waitForSleepers(1)
        waiter.cancel()
        clock.advance(by: .seconds(2))
        await waiter.value
        // Then it returned without taking a slot: a wait that had swallowed the cancellation would have taken the
        // slot the window's passing freed, and the window would hold it now
        #expect(await budget.hasHeadroom(endpoint: "/v1/charges", share: 1) == true)
    }

    @Test("one endpoint is held to its own rate while others go on")
    func endpointRate() async {
        let clock = ManualClock(advancesToEachSleeper: true)
        let budget = RequestBudget(globalRate: 1_000, endpointRate: 5, margin: .zero, clock: clock)
        let began = clock.now
        var charges: [ManualClock.Instant] = []
        for _ in 0..<12 {
            await budget.acquire(endpoint: "/v1/charges")
            charges.append(clock.now)
        }
        assertSlidingWindow(charges, rate: 5)
        // Twelve at 5/s, a slot (200 ms) apart: the last starts 2.2 s after the first.
        #expect(began.duration(to: clock.now) == .milliseconds(2_200))
        // The charges window is full now, yet another endpoint's first request goes without waiting, once past the
        // global spacing (1 ms at 1,000/s).
        clock.advance(by: .milliseconds(2))
        let waitsBefore = await budget.waits
        await budget.acquire(endpoint: "/v1/transfers")
        #expect(await budget.waits == waitsBefore, "another endpoint's first request did not wait")
    }

    @Test("a busy priority endpoint keeps its rate free in the global window; the others share the rest")
    func priorityEndpointKeepsItsRate() async {
        // Given 10/s for the account, 4/s per endpoint, and balance transactions first
        let clock = ManualClock(advancesToEachSleeper: true)
        let budget = RequestBudget(globalRate: 10, endpointRate: 4, margin: .zero, clock: clock)
        await budget.prioritize(endpoint: "/v1/balance_transactions")
        // When balance transactions send one request, and other endpoints then want as many as they can
        await budget.acquire(endpoint: "/v1/balance_transactions")
        let busy = clock.now
        var others: [ManualClock.Instant] = []
        for index in 0..<8 {
            await budget.acquire(endpoint: "/v1/e\(index % 4)")
            others.append(clock.now)
        }
        // Then within that second they get 10 − 4 = 6 slots, not 9: the 7th waits for the window to pass
        #expect(busy.duration(to: others[5]) < .seconds(1))
        #expect(busy.duration(to: others[6]) >= .seconds(1))
    }

    @Test(
        "requests waiting for an endpoint go in order of precedence: a payout's page first though it came last, then the most pages left"
    )
    func higherPrecedenceGoesFirst() async throws {
        // Given an endpoint at 1/s whose window is full
        let clock = ManualClock()
        let budget = RequestBudget(globalRate: 1_000, endpointRate: 1, margin: .zero, clock: clock)
        await budget.acquire(endpoint: "/v1/balance_transactions")
        // When three pieces of a list wait for it, with 1, 5 and 3 pages left, and then a payout's next page
        let order = Recorder()
        var tasks: [Task<Void, Never>] = []
        for precedence in [1, 5, 3, RequestBudget.ahead] {
            tasks.append(
                Task {
                    await budget.acquire(endpoint: "/v1/balance_transactions", precedence: precedence)
                    await order.record(precedence)
                })
            await clock.waitForSleepers(tasks.count)
        }
        // Then each second's slot goes to the payout's page, then to the piece with the most pages left
        for sent in 1...4 {
            clock.advance(by: .seconds(1))
            for _ in 0..<10_000 where await order.values.count < sent { await Task.yield() }
            if sent < 4 { await clock.waitForSleepers(4 - sent) }
        }
        #expect(await order.values == [RequestBudget.ahead, 5, 3, 1])
        for task in tasks { task.cancel() }
    }

    @Test("requests are spaced at least a slot apart, so a window's worth is not one burst")
    func spacing() async {
        let clock = ManualClock(advancesToEachSleeper: true)
        let budget = RequestBudget(globalRate: 20, endpointRate: 1_000, margin: .zero, clock: clock)
        var starts: [ManualClock.Instant] = []
        for _ in 0..<6 {
            await budget.acquire(endpoint: "/v1/charges")
            starts.append(clock.now)
        }
        for (earlier, later) in zip(starts, starts.dropFirst()) {
            #expect(earlier.duration(to: later) == .milliseconds(50))  // one slot: 1 / 20 s
        }
    }

    @Test("429s lower the limit that was hit")
    func adaptsToRateLimits() async {
        let budget = RequestBudget(globalRate: 100, endpointRate: 20, clock: ManualClock())
        await budget.acquire(endpoint: "/v1/charges")
        await budget.rateLimited(endpoint: "/v1/charges", reason: "endpoint-rate")
        let afterEndpoint = await budget.effectiveRates(endpoint: "/v1/charges")
        #expect(afterEndpoint.global == 100)
        #expect(afterEndpoint.endpoint == 15)
        await budget.rateLimited(endpoint: "/v1/charges", reason: "global-rate")
        #expect(await budget.effectiveRates(endpoint: "/v1/charges").global == 75)
    }
}

@Suite("Request description")
struct HTTPRequestDescriptionTests {
    @Test("printing, dumping or interpolating a request never shows the key")
    func descriptionHidesHeaderValues() throws {
        let key = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
        let request = HTTPRequest(
            url: try #require(URL(string: "https://api.stripe.com/v1/charges")),
            headers: [("Authorization", "Bearer \(key)")])
        var dumped = ""
        dump(request, to: &dumped)
        for text in ["\(request)", String(describing: request), String(reflecting: request), dumped] {
            #expect(!text.contains(key))
            #expect(text.contains("/v1/charges"))
        }
    }
}

@Suite("Oversized integers")
struct OversizedIntegerTests {
    @Test("the first integer too large for Int64 is found with its key; floats and strings are not")
    func findsTheField() {
        func find(_ json: String) -> (key: String, literal: String)? {
            (try? JSONTape(Array(json.utf8)))?.oversizedInteger(in: JSONTape.root)
        }
        let found = find(#"{"id":"ch_1","amount":100,"amount_captured":99999999999999999999}"#)
        #expect(found?.key == "amount_captured")
        #expect(found?.literal == "99999999999999999999")
        #expect(find(#"{"amount":9223372036854775807,"min":-9223372036854775808}"#) == nil)
        #expect(find(#"{"rate":1.0e30,"note":"99999999999999999999"}"#) == nil)
        #expect(find(#"{"nested":{"fee":-9223372036854775809}}"#)?.key == "fee")
    }
}

/// What the tasks of a test did, in the order they did it.
private actor Recorder {
    private(set) var values: [Int] = []
    func record(_ value: Int) { values.append(value) }
}
