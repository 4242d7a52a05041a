import Foundation
import Sandbox
import Testing

/// The fault switches: injected 500s, 429s above the rate limits, latency, dropped connections and truncated
/// bodies.
@Suite struct FaultTests {
    @Test func failRateOneAnswersEveryRequestWithARetryable500() async throws {
        let server = try await startServer(charges: 10) { $0.failRate = 1 }
        for _ in 0..<3 {
            let response = try get(server, "/v1/charges")
            #expect(response.status == 500)
            #expect(response.headers["stripe-should-retry"] == "true")
            #expect(response.headers["request-id"]?.hasPrefix("req_") == true)
            #expect(try response.json().object("error")?.string("type") == "api_error")
        }
        #expect(server.requestStats.injectedFailures == 3)
        #expect(server.requestStats.byStatus[500] == 3)
        try await server.shutdown()
    }

    @Test func aBurstAboveTheGlobalRateIsAnswered429UntilTheWindowPasses() async throws {
        // Given a sandbox allowing 5 requests per second, on a clock the test moves
        let clock = ManualClock()
        let server = try await startRateLimitedServer(rateLimit: 5, clock: clock)
        let connection = try WireConnection(port: server.port)
        // When 12 requests come within the same instant
        let statuses = try (0..<12).map { _ in try connection.request("/v1/charges?limit=1") }
        // Then the first 5 pass and the other 7 get Stripe's 429
        #expect(statuses.prefix(5).allSatisfy { $0.status == 200 })
        let limited = try #require(statuses.first { $0.status == 429 })
        #expect(limited.headers["stripe-rate-limited-reason"] == "global-rate")
        let error = try #require(try limited.json().object("error"))
        #expect(error.string("type") == "invalid_request_error")
        #expect(error.string("code") == "rate_limit")
        #expect(error.string("message")?.hasPrefix("Too many requests") == true)
        #expect(statuses.filter { $0.status == 429 }.count == 7)
        // Just short of the one-second window the requests are still limited; once it has passed they pass again
        clock.advance(by: .milliseconds(999))
        #expect(try connection.request("/v1/charges?limit=1").status == 429)
        clock.advance(by: .milliseconds(1))
        #expect(try connection.request("/v1/charges?limit=1").status == 200)
        #expect(server.requestStats.rateLimited == 8)
        try await server.shutdown()
    }

    @Test func theEndpointRateLimitCountsEachEndpointOnItsOwn() async throws {
        let clock = ManualClock()
        let server = try await startRateLimitedServer(endpointRateLimit: 3, clock: clock)
        let connection = try WireConnection(port: server.port)
        let charges = try (0..<5).map { _ in try connection.request("/v1/charges").status }
        #expect(charges == [200, 200, 200, 429, 429])
        let limited = try connection.request("/v1/charges")
        #expect(limited.headers["stripe-rate-limited-reason"] == "endpoint-rate")
        #expect(try connection.request("/v1/transfers").status == 200, "another endpoint has its own window")
        clock.advance(by: .seconds(1))
        #expect(try connection.request("/v1/charges").status == 200, "the endpoint's window has passed")
        try await server.shutdown()
    }

    @Test func latencyDelaysEveryResponse() async throws {
        let server = try await startServer(charges: 10) { $0.latency = .milliseconds(150) }
        let connection = try WireConnection(port: server.port)
        let clock = ContinuousClock()
        let started = clock.now
        for _ in 0..<3 {
            let status = try connection.request("/v1/charges").status
            #expect(status == 200)
        }
        let elapsed = clock.now - started
        // Real time on purpose, not a ManualClock (unlike the rate windows above, which the server measures on the
        // clock it is given): the latency holds each answer on the event loop's timers, in real time, as the network
        // the sandbox stands in for would, and what is tested is that the answers really come that late. Only a lower
        // bound: a loaded machine may take longer, never shorter.
        #expect(elapsed >= .milliseconds(450))
        try await server.shutdown()
    }

    @Test func dropRateOneClosesConnectionsWithoutAnAnswer() async throws {
        let server = try await startServer(charges: 10) { $0.dropRate = 1 }
        let response = try get(server, "/v1/charges")
        #expect(response.status == 0)
        #expect(response.body.isEmpty)
        #expect(server.requestStats.dropped == 1)
        try await server.shutdown()
    }

    @Test func truncateRateOneCutsBodiesShortOfTheirContentLength() async throws {
        let server = try await startServer(charges: 10) { $0.truncateRate = 1 }
        let response = try get(server, "/v1/charges")
        #expect(response.status == 200)
        #expect(!response.complete)
        let announced = Int(response.headers["content-length"] ?? "0") ?? 0
        #expect(response.body.count < announced)
        #expect((try? JSONSerialization.jsonObject(with: response.body)) == nil)
        #expect(server.requestStats.truncated == 1)
        try await server.shutdown()
    }

    @Test func theSummaryNamesSeedSizeRangeAndFaults() async throws {
        let server = try await startServer(charges: 10, seed: 42) { $0.failRate = 0.1 }
        #expect(server.summary.hasPrefix("seed 42, 10 charges, 2026-11-01..2026-12-01, "))
        #expect(server.summary.contains("fail rate 0.1"))
        try await server.shutdown()
    }

    /// A small sandbox whose rate windows run on `clock`.
    private func startRateLimitedServer(
        rateLimit: Double? = nil, endpointRateLimit: Double? = nil, clock: ManualClock
    ) async throws -> SandboxServer {
        var options = SandboxOptions()
        options.charges = 10
        options.seed = 7
        options.rateLimit = rateLimit
        options.endpointRateLimit = endpointRateLimit
        return try await SandboxServer.start(options, clock: clock)
    }
}
