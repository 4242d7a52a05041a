import Foundation
import StripeAPI
import TestSupport
import Testing

@testable import CurlTransport

// MARK: POST

@Test func postSendsItsFormBodyAndAGetOnTheSameHandleAfterItSendsNone() async throws {
    // Given a server that answers everything, and a transport with one worker (so the GET reuses the POST's handle)
    try await StubServer.with({ _ in .text(200, #"{"id":"frr_1"}"#) }) { server in
        let transport = try makeTransport(workers: 1)
        defer { transport.shutdown() }
        let form = "report_type=balance.summary.1&parameters%5Bcolumns%5D%5B%5D=category&note=a%00b"
        var post = try request(
            "\(server.baseURL)/v1/reporting/report_runs",
            headers: stripeHeaders + [(name: "Content-Type", value: "application/x-www-form-urlencoded")])
        post.method = .post
        post.body = Data(form.utf8)

        // When it posts, then gets
        let response = try await transport.get(post)
        let second = try await transport.get(request("\(server.baseURL)/v1/reporting/report_runs/frr_1"))

        // Then the server saw a POST with exactly the body and its content type, then a GET with no body
        #expect(response.status == 200)
        #expect(second.status == 200)
        let received = server.requests
        try #require(received.count == 2)
        #expect(received[0].method == "POST")
        #expect(received[0].uri == "/v1/reporting/report_runs")
        #expect(String(decoding: received[0].body, as: UTF8.self) == form)
        #expect(received[0].values(of: "Content-Length") == [String(form.utf8.count)])
        #expect(received[0].values(of: "Content-Type") == ["application/x-www-form-urlencoded"])
        #expect(received[0].values(of: "Expect").isEmpty)
        #expect(received[1].method == "GET")
        #expect(received[1].body.isEmpty)
        #expect(server.acceptedConnections == 1)
    }
}

@Test func postWithALargeBodySendsAllOfItWithoutWaitingFor100Continue() async throws {
    try await StubServer.with({ _ in .text(200, "{}") }) { server in
        let transport = try makeTransport(workers: 1, requestTimeout: .seconds(3))
        defer { transport.shutdown() }
        let bytes = (0..<200_000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        var post = try request("\(server.baseURL)/v1/reporting/report_runs")
        post.method = .post
        post.body = Data(bytes)

        let response = try await transport.get(post)

        #expect(response.status == 200)
        #expect(server.requests.first?.body == bytes)
    }
}

@Test func aRefusedPostNamesPostInItsError() async throws {
    var post = try request("http://192.0.2.1/v1/reporting/report_runs")
    post.method = .post
    post.body = Data("a=b".utf8)
    let transport = try makeTransport()
    defer { transport.shutdown() }

    let error = await failure(of: post, on: transport)

    #expect(error?.detail.hasPrefix("POST http://192.0.2.1/v1/reporting/report_runs") == true)
}

@Test func aRequestsDescriptionShowsItsMethodButNeitherHeaderValuesNorTheBody() throws {
    var post = try request("https://api.stripe.com/v1/reporting/report_runs")
    post.method = .post
    post.body = Data("secret_form_value=42".utf8)

    let text = "\(post) \(String(reflecting: post))"

    #expect(text.hasPrefix("POST https://api.stripe.com/v1/reporting/report_runs"))
    #expect(!text.contains(secretKey))
    #expect(!text.contains("secret_form_value"))
}
