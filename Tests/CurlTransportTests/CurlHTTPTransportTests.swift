import Foundation
import StripeAPI
import TestSupport
import Testing

@testable import CurlTransport

// MARK: Responses

@Test func okResponseRoundTripsStatusHeadersAndBodyAndRequestHeadersArrive() async throws {
    // Given a server that answers 200 with a few headers (one repeated, one mixed-case)
    try await StubServer.with({ _ in
        .text(
            200, #"{"object":"balance"}"#,
            headers: [
                ("Content-Type", "application/json"), ("Request-Id", "req_123"), ("X-Repeated", "first"),
                ("X-Repeated", "second"),
            ])
    }) { server in
        let transport = try makeTransport()
        defer { transport.shutdown() }

        // When the transport fetches it
        let response = try await transport.get(request("\(server.baseURL)/v1/balance?limit=100"))

        // Then status, lower-cased headers (last repeat wins) and body come back
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.header("Request-Id") == "req_123")
        #expect(response.headers["x-repeated"] == "second")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"object":"balance"}"#)

        // And the server saw the request's headers and the configured User-Agent
        let received = try #require(server.requests.first)
        #expect(received.method == "GET")
        #expect(received.uri == "/v1/balance?limit=100")
        #expect(received.values(of: "Authorization") == [authorization])
        #expect(received.values(of: "Stripe-Version") == ["2024-06-20"])
        #expect(received.values(of: "User-Agent") == ["connect-recon-tests/1.0"])
    }
}

@Test func gzipEncodedBodyIsDecoded() async throws {
    try await StubServer.with({ _ in
        .response(status: 200, headers: [("Content-Encoding", "gzip")], body: gzippedListPage)
    }) { server in
        let transport = try makeTransport()
        defer { transport.shutdown() }

        let response = try await transport.get(request("\(server.baseURL)/v1/charges"))

        #expect(String(decoding: response.body, as: UTF8.self) == listPageJSON)
        let acceptEncoding = try #require(server.requests.first?.header("Accept-Encoding"))
        #expect(acceptEncoding.contains("gzip"))
    }
}

@Test(arguments: [400, 401, 403, 404, 409, 429, 500, 503])
func errorStatusesComeBackAsResponsesWithTheirBodies(status: Int) async throws {
    try await StubServer.with({ _ in
        .text(status, #"{"error":{"type":"api_error"}}"#, headers: [("Retry-After", "1")])
    }) { server in
        let transport = try makeTransport(workers: 1)
        defer { transport.shutdown() }

        let response = try await transport.get(request("\(server.baseURL)/v1/charges"))

        #expect(response.status == status)
        #expect(response.headers["retry-after"] == "1")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":{"type":"api_error"}}"#)
    }
}

@Test func redirectIsReturnedAsItselfAndNotFollowed() async throws {
    try await StubServer.with({ request in
        request.uri == "/start" ? .text(302, "", headers: [("Location", "/elsewhere")]) : .text(200, "followed")
    }) { server in
        let transport = try makeTransport()
        defer { transport.shutdown() }

        let response = try await transport.get(request("\(server.baseURL)/start"))

        #expect(response.status == 302)
        #expect(response.headers["location"] == "/elsewhere")
        #expect(server.requests.map(\.uri) == ["/start"])
    }
}

@Test func onlyTheFinalResponsesHeadersAreKeptAfter100Continue() async throws {
    let bytes = Array(
        ("HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nX-Final: yes\r\nContent-Length: 2\r\n\r\nok").utf8)
    try await StubServer.with({ _ in .raw(bytes, close: false) }) { server in
        let transport = try makeTransport()
        defer { transport.shutdown() }

        let response = try await transport.get(request("\(server.baseURL)/v1/charges"))

        #expect(response.status == 200)
        #expect(response.headers["x-final"] == "yes")
        #expect(response.headers["x-interim"] == nil)
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
    }
}

@Test func localhostIsAllowedOverPlainHTTP() async throws {
    try await StubServer.with({ _ in .text(200, "hello") }) { server in
        let transport = try makeTransport()
        defer { transport.shutdown() }

        let response = try await transport.get(request("http://localhost:\(server.port)/"))

        #expect(response.status == 200)
    }
}

// MARK: Connections and concurrency

@Test func sequentialRequestsOnOneWorkerReuseOneConnection() async throws {
    try await StubServer.with({ _ in .text(200, "{}") }) { server in
        let transport = try makeTransport(workers: 1)
        defer { transport.shutdown() }

        for index in 0..<50 {
            let response = try await transport.get(request("\(server.baseURL)/v1/charges?page=\(index)"))
            #expect(response.status == 200)
        }

        #expect(server.requests.count == 50)
        #expect(server.acceptedConnections == 1)
    }
}

@Test func concurrentRequestsRunInParallelOnTheWorkers() async throws {
    // Given a server that takes 200 ms per request and a transport with 16 workers
    try await StubServer.with({ _ in .delayed(.milliseconds(200), .text(200, "{}")) }) { server in
        let transport = try makeTransport(workers: 16)
        defer { transport.shutdown() }
        let page = try request("\(server.baseURL)/v1/charges")

        // When 32 requests are made at once
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<32 {
                group.addTask { try await transport.get(page).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then all succeed, on several workers' connections at once (a worker only takes a second request
        // when the first is done, so many connections mean requests in flight together), and at most 16.
        // Wall-clock bounds are left to the benchmarks: tests run in parallel on a 2-core machine.
        #expect(statuses == Array(repeating: 200, count: 32))
        #expect(server.acceptedConnections >= 8)
        #expect(server.acceptedConnections <= 16)
    }
}

// MARK: Transport errors

@Test func serverClosingWithoutAnAnswerIsConnectionFailed() async throws {
    try await StubServer.with({ _ in .close }) { server in
        let transport = try makeTransport()
        defer { transport.shutdown() }

        let error = await failure(of: try request("\(server.baseURL)/v1/charges"), on: transport)

        guard case .connectionFailed(let detail) = error else {
            Issue.record("expected connectionFailed, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("/v1/charges"))
        #expect(error?.isRetryable == true)
    }
}

@Test func bodyShorterThanItsContentLengthIsTruncated() async throws {
    let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"object\":".utf8)
    try await StubServer.with({ _ in .raw(bytes, close: true) }) { server in
        let transport = try makeTransport()
        defer { transport.shutdown() }

        let error = await failure(of: try request("\(server.baseURL)/v1/charges"), on: transport)

        guard case .truncated = error else {
            Issue.record("expected truncated, got \(String(describing: error))")
            return
        }
    }
}

@Test func responseSlowerThanTheRequestTimeoutIsTimedOut() async throws {
    try await StubServer.with({ _ in .delayed(.seconds(3), .text(200, "late")) }) { server in
        let transport = try makeTransport(requestTimeout: .milliseconds(300))
        defer { transport.shutdown() }

        let error = await failure(of: try request("\(server.baseURL)/v1/charges"), on: transport)

        // A timedOut error is itself the proof: the server answers only after 3 s, the timeout is 300 ms.
        guard case .timedOut = error else {
            Issue.record("expected timedOut, got \(String(describing: error))")
            return
        }
    }
}

@Test func portWithNothingListeningIsConnectionFailed() async throws {
    let port = try await StubServer.unusedPort()
    let transport = try makeTransport()
    defer { transport.shutdown() }

    let error = await failure(of: try request("http://127.0.0.1:\(port)/v1/charges"), on: transport)

    guard case .connectionFailed = error else {
        Issue.record("expected connectionFailed, got \(String(describing: error))")
        return
    }
}

@Test func httpsToAServerThatDoesNotSpeakTLSIsTLSFailure() async throws {
    try await StubServer.with({ _ in .text(200, "plain") }) { server in
        let transport = try makeTransport()
        defer { transport.shutdown() }

        let error = await failure(of: try request("https://127.0.0.1:\(server.port)/v1/charges"), on: transport)

        guard case .tlsFailure = error else {
            Issue.record("expected tlsFailure, got \(String(describing: error))")
            return
        }
        #expect(error?.isRetryable == false)
    }
}

// MARK: Refused before any traffic

@Test(arguments: [
    "http://example.invalid/v1/charges", "http://api.stripe.com/v1/charges", "http://10.0.0.1/",
    "http://127.0.0.1.example.com/", "http://[::2]/", "http://128.0.0.1/",
])
func plainHTTPToANonLoopbackHostIsRefused(url: String) async throws {
    let transport = try makeTransport(workers: 1)
    defer { transport.shutdown() }

    let error = await failure(of: try request(url), on: transport)

    guard case .invalidRequest(let detail) = error else {
        Issue.record("expected invalidRequest, got \(String(describing: error))")
        return
    }
    #expect(detail.contains("plain http"))
}

@Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/passwd", "gopher://127.0.0.1/", "ws://127.0.0.1/"])
func unsupportedSchemesAreRefused(url: String) async throws {
    let transport = try makeTransport(workers: 1)
    defer { transport.shutdown() }

    let error = await failure(of: try request(url), on: transport)

    guard case .invalidRequest = error else {
        Issue.record("expected invalidRequest, got \(String(describing: error))")
        return
    }
}

@Test func headerValueWithALineBreakIsRefusedWithoutRevealingIt() async throws {
    try await StubServer.with({ _ in .text(200, "{}") }) { server in
        let transport = try makeTransport()
        defer { transport.shutdown() }
        let injected = [(name: "Authorization", value: "\(authorization)\r\nX-Injected: yes")]

        let error = await failure(of: try request("\(server.baseURL)/v1/charges", headers: injected), on: transport)

        guard case .invalidRequest(let detail) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("Authorization"))
        #expect(!detail.contains(secretKey))
        #expect(server.acceptedConnections == 0)
    }
}

@Test func urlWithCredentialsIsRefusedWithoutRevealingThem() async throws {
    let transport = try makeTransport()
    defer { transport.shutdown() }

    let error = await failure(of: try request("http://user:\(secretKey)@127.0.0.1:9/v1/charges"), on: transport)

    guard case .invalidRequest(let detail) = error else {
        Issue.record("expected invalidRequest, got \(String(describing: error))")
        return
    }
    #expect(!detail.contains(secretKey))
}

@Test func noErrorContainsTheAuthorizationHeaderValue() async throws {
    // Given one failing request of each kind, all carrying the key
    let unused = try await StubServer.unusedPort()
    let truncated = Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort".utf8)
    try await StubServer.with({ request in
        switch request.uri {
        case "/close": .close
        case "/truncated": .raw(truncated, close: true)
        default: .delayed(.seconds(3), .text(200, "late"))
        }
    }) { server in
        let transport = try makeTransport(requestTimeout: .milliseconds(300))
        defer { transport.shutdown() }
        let urls = [
            "\(server.baseURL)/close", "\(server.baseURL)/truncated", "\(server.baseURL)/slow",
            "http://127.0.0.1:\(unused)/", "https://127.0.0.1:\(server.port)/tls", "http://example.invalid/",
            "ftp://127.0.0.1/",
        ]

        for url in urls {
            // When each fails
            let error = try #require(await failure(of: try request(url), on: transport))

            // Then neither its detail nor any rendering of it holds the key
            for text in [error.detail, String(describing: error), String(reflecting: error), "\(error)"] {
                #expect(!text.contains(secretKey), "\(url) leaked the key")
            }
        }
    }
}

@Test func redactorRemovesHeaderValuesAndTheKeyInsideThem() {
    let redactor = Redactor(secrets: [authorization, "2024-06-20"])

    #expect(redactor.scrub("sent \(authorization) to host") == "sent [redacted] to host")
    #expect(!redactor.scrub("key \(secretKey) alone").contains(secretKey))
}

// MARK: Cancellation and shutdown

@Test(.timeLimit(.minutes(10)))
func cancellingTheCallerAnswersAtOnceAndFreesTheWorker() async throws {
    // The slow response would take an hour (and so would the request timeout): only giving the transfer up
    // frees the worker for the next request, so every outcome below is decided by events, not by a stopwatch.
    // The time limit only keeps a broken transport from hanging the suite (it is generous: a loaded run of the
    // whole suite can starve a test of the cooperative pool for minutes).
    try await StubServer.with({ request in
        request.path == "/slow" ? .delayed(.seconds(3_600), .text(200, "late")) : .text(200, "fast")
    }) { server in
        // Given one worker busy with a slow request that has reached the server
        let transport = try makeTransport(workers: 1, requestTimeout: .seconds(3_600))
        defer { transport.shutdown() }
        let slow = try request("\(server.baseURL)/slow")
        let task = Task { await failure(of: slow, on: transport) }
        let arrived = try #require(await server.firstRequest { $0.path == "/slow" })

        // When its caller is cancelled
        task.cancel()
        let error = await task.value

        // Then the caller is answered with a non-retryable "cancelled" (the response could not have come yet)
        guard case .invalidRequest(let detail) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("cancelled"))

        // And the worker hangs up on the slow transfer and serves the next request
        #expect(await server.closed(connection: arrived.connection))
        let response = try await transport.get(request("\(server.baseURL)/fast"))
        #expect(response.status == 200)
    }
}

@Test func alreadyCancelledCallerNeverReachesTheServer() async throws {
    try await StubServer.with({ _ in .text(200, "{}") }) { server in
        let transport = try makeTransport(workers: 1)
        defer { transport.shutdown() }
        let page = try request("\(server.baseURL)/v1/charges")

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await failure(of: page, on: transport)
        }
        let error = await task.value

        guard case .invalidRequest = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        // The worker skips a pending request whose caller is gone; a follow-up proves the queue moved on.
        _ = try await transport.get(page)
        #expect(server.requests.count == 1)
    }
}

@Test(.timeLimit(.minutes(10)))
func shutdownAbortsRunningRequestsAndRefusesNewOnes() async throws {
    // The response would take an hour: only shutdown can end these requests, whatever the machine's load.
    try await StubServer.with({ _ in .delayed(.seconds(3_600), .text(200, "late")) }) { server in
        // Given one worker busy with a request that has reached the server, and a second request behind it
        let transport = try makeTransport(workers: 1, requestTimeout: .seconds(3_600))
        let slow = try request("\(server.baseURL)/slow")
        let running = Task { await failure(of: slow, on: transport) }
        let arrived = try #require(await server.firstRequest { _ in true })
        let queued = Task { await failure(of: slow, on: transport) }

        // When the transport shuts down
        transport.shutdown()

        // Then both fail at once (the second whether it was still queued or came after the shutdown), the
        // running transfer's connection is closed, and later requests are refused
        for error in [await running.value, await queued.value] {
            guard case .invalidRequest = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                continue
            }
        }
        #expect(await server.closed(connection: arrived.connection))
        let later = await failure(of: slow, on: transport)
        #expect(later?.detail.contains("shut down") == true)
        transport.shutdown()  // a second call is harmless
    }
}

// MARK: Configuration and host rules

@Test(arguments: [
    CurlTransportConfiguration(maxConcurrentRequests: 0),
    CurlTransportConfiguration(maxConcurrentRequests: 10_000),
    CurlTransportConfiguration(connectTimeout: .zero),
    CurlTransportConfiguration(requestTimeout: .milliseconds(-1)),
    CurlTransportConfiguration(userAgent: "bad\r\nX-Injected: 1"),
])
func unusableConfigurationsAreRejected(configuration: CurlTransportConfiguration) {
    #expect(throws: TransportError.self) { try CurlHTTPTransport(configuration: configuration) }
}

@Test(arguments: [
    ("127.0.0.1", true), ("127.255.0.9", true), ("localhost", true), ("LOCALHOST", true), ("[::1]", true),
    ("::1", true), ("128.0.0.1", false), ("127.0.0.1.example.com", false), ("127.0.0", false),
    ("127.0.0.256", false), ("localhost.example.com", false), ("[::2]", false), ("api.stripe.com", false),
    ("", false),
])
func loopbackHostsAreRecognised(host: String, isLoopback: Bool) {
    #expect(LoopbackHost.contains(host) == isLoopback)
}

@Test func millisecondsForCurlAreAtLeastOne() {
    #expect(Duration.milliseconds(1500).curlMilliseconds == 1500)
    #expect(Duration.microseconds(10).curlMilliseconds == 1)
    #expect(Duration.seconds(Int64.max).curlMilliseconds == Int(Int32.max))
}
