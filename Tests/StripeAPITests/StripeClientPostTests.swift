import Foundation
import Logging
import ReconCore
import TestSupport
import Testing

@testable import StripeAPI

@Suite("Stripe client: POST and downloads")
struct StripeClientPostTests {
    static let runJSON =
        #"{"id":"frr_1","object":"reporting.report_run","created":1,"error":null,"livemode":false,"parameters":{},"report_type":"balance.summary.1","result":null,"status":"pending"}"#

    static func client(_ transport: ScriptedTransport, key: String = StripeClientTests.key) throws -> StripeClient {
        let clock = ManualClock(advancesToEachSleeper: true)
        let configuration = StripeClientConfiguration(
            baseURL: try #require(URL(string: "http://127.0.0.1:12111")), key: try APIKey(key),
            stripeVersion: "2026-07-29.dahlia",
            retryPolicy: RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(5)))
        return StripeClient(
            configuration: configuration, transport: transport,
            budget: RequestBudget(globalRate: 10_000, endpointRate: 10_000, clock: clock),
            logger: Logger(label: "test"), clock: clock)
    }

    @Test func aRetriedPostReusesItsIdempotencyKeyAndTheNextPostGetsANewOne() async throws {
        // Given Stripe answering the first attempt 500, then creating the run, then creating another
        let transport = ScriptedTransport([
            .respond(500, #"{"error":{"type":"api_error","message":"try again"}}"#), .respond(200, Self.runJSON),
            .respond(200, Self.runJSON),
        ])
        let client = try Self.client(transport)
        let form = [("report_type", "balance.summary.1"), ("parameters[columns][]", "category")]

        // When two runs are created
        let run = try await client.post(ReportRun.self, path: "/v1/reporting/report_runs", form: form, endpoint: "/r")
        _ = try await client.post(ReportRun.self, path: "/v1/reporting/report_runs", form: form, endpoint: "/r")

        // Then the retry carried the same body and key as the first attempt, and the second call a new key
        #expect(run.id == "frr_1" && run.status == .pending)
        let requests = transport.requests
        try #require(requests.count == 3)
        func key(_ request: HTTPRequest) -> String? {
            request.headers.first { $0.name == "Idempotency-Key" }?.value
        }
        #expect(requests.allSatisfy { $0.method == .post })
        #expect(key(requests[0]) != nil)
        #expect(key(requests[0]) == key(requests[1]))
        #expect(key(requests[2]) != key(requests[0]))
        #expect(requests[0] == requests[1])
        #expect(
            String(decoding: requests[0].body ?? Data(), as: UTF8.self)
                == "report_type=balance.summary.1&parameters%5Bcolumns%5D%5B%5D=category")
    }

    @Test func aFailedPostSaysPost() async throws {
        let transport = ScriptedTransport([
            .respond(400, #"{"error":{"type":"invalid_request_error","message":"bad interval"}}"#)
        ])
        let client = try Self.client(transport)

        let error = await #expect(throws: StripeClientError.self) {
            try await client.post(ReportRun.self, path: "/v1/reporting/report_runs", form: [], endpoint: "/v1/x")
        }

        #expect(error?.message.hasPrefix("POST /v1/x failed with HTTP 400") == true)
        #expect(error?.status == 400)
    }

    @Test(arguments: [
        ("http://127.0.0.1:12111/v1/files/f/contents", StripeMode.test, true),
        ("HTTP://127.0.0.1:12111/v1/files/f/contents", .test, true),
        ("http://127.0.0.1:12112/v1/files/f/contents", .test, false),
        ("http://localhost:12111/v1/files/f/contents", .test, false),
        ("https://127.0.0.1:12111/v1/files/f/contents", .test, false),
        ("https://files.stripe.com/v1/files/f/contents", .test, false),
        ("https://files.stripe.com/v1/files/f/contents", .live, true),
        ("https://files.stripe.com:443/v1/files/f/contents", .live, true),
        ("https://files.stripe.com:8443/v1/files/f/contents", .live, false),
        ("http://files.stripe.com/v1/files/f/contents", .live, false),
        ("https://files.stripe.com.evil.example/v1/files/f/contents", .live, false),
        ("https://user:pw@files.stripe.com/v1/files/f/contents", .live, false),
    ])
    func theKeyGoesOnlyToTheAPIBaseOrForALiveKeyToStripesFilesHost(url: String, mode: StripeMode, allowed: Bool)
        throws
    {
        let rule = DownloadHostRule(baseURL: try #require(URL(string: "http://127.0.0.1:12111")), mode: mode)

        #expect((rule.refusal(for: try #require(URL(string: url))) == nil) == allowed)
    }

    @Test func aRefusedDownloadSendsNothingAndSaysTheKeyWasNotSent() async throws {
        let transport = ScriptedTransport([.respond(200, "a,b\n")])
        let client = try Self.client(transport)

        let error = await #expect(throws: StripeClientError.self) {
            try await client.download(
                url: try #require(URL(string: "https://evil.example.com/v1/files/f/contents?token=x")),
                endpoint: "/v1/files/:id/contents")
        }

        #expect(
            error == .keyWithheld(host: "evil.example.com", endpoint: "https://evil.example.com/v1/files/f/contents"))
        #expect(error?.message.contains("the API key was not sent") == true)
        #expect(transport.requestCount == 0)
    }
}
