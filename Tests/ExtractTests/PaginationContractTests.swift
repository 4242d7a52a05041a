import ExtractionTestSupport
import Foundation
import History
import Logging
import ReconCore
import StripeAPI
import Testing

@testable import Extract

/// A server whose refunds list repeats the same page forever; every other list is empty.
final class RepeatingTransport: HTTPTransport, Sendable {
    let body: String
    init(body: String) { self.body = body }

    func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let empty = #"{"object":"list","url":"/v1/x","has_more":false,"data":[]}"#
        let text = request.url.path == "/v1/refunds" ? body : empty
        return HTTPResponse(status: 200, headers: ["request-id": "req_loop"], body: Data(text.utf8))
    }
}

@Suite("Paging contract")
struct PaginationContractTests {
    @Test("a list whose cursor does not advance stops with an error instead of looping")
    func cursorThatDoesNotAdvance() async throws {
        let refund =
            #"{"id":"re_1","object":"refund","amount":100,"balance_transaction":null,"charge":"ch_1","created":1793500000,"currency":"usd","metadata":{},"payment_intent":null,"reason":null,"status":"succeeded","transfer_reversal":null}"#
        let transport = RepeatingTransport(
            body: #"{"object":"list","url":"/v1/refunds","has_more":true,"data":[\#(refund)]}"#)
        let client = StripeClient(
            configuration: StripeClientConfiguration(
                baseURL: URL(string: "http://127.0.0.1:1")!, key: try APIKey(ExtractionHarness.key),
                stripeVersion: "2026-07-29.dahlia", retryPolicy: RetryPolicy(maxRetries: 0)),
            transport: transport, budget: RequestBudget(globalRate: 1_000, endpointRate: 1_000),
            logger: Logger(label: "test"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try HistoryStore.open(path: folder.appendingPathComponent("h.sqlite").path)
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: 1_793_491_200), to: Date(timeIntervalSince1970: 1_793_577_600),
            timeZone: TimeZone(identifier: "UTC")!)
        let runID = try store.runs.beginRun(
            RunStart(
                command: "extract", range: range, mode: .test, toolVersion: "t", stripeVersion: "v", apiBase: "x",
                startedAt: 0, pid: 1)
        ).runID
        let extractor = Extractor(
            client: client, store: store, options: Extractor.Options(concurrency: 1, settleMargin: 0),
            logger: Logger(label: "test"))
        await #expect {
            _ = try await extractor.extract(from: 1_793_491_200, to: 1_793_577_600, runID: runID, now: 1_800_000_000)
        } throws: { error in
            guard case .brokenPagination(_, let requestID, let detail) = error as? StripeClientError else {
                return false
            }
            return requestID == "req_loop" && detail.contains("did not advance")
        }
    }

    @Test("intervals: finished windows are subtracted, the rest is cut to length; nothing is left of an empty one")
    func intervals() {
        #expect(Intervals.subtract([10..<20, 30..<40], from: 0..<50) == [0..<10, 20..<30, 40..<50])
        #expect(Intervals.subtract([0..<50], from: 0..<50) == [])
        #expect(Intervals.subtract([], from: 0..<50) == [0..<50])
        // A range whose balance read is too far after it lists nothing after it: not a request for [to, to).
        #expect(Intervals.subtract([], from: 50..<50) == [])
        #expect(Intervals.split(0..<25, length: 10) == [0..<10, 10..<20, 20..<25])
        #expect(Intervals.split(0..<10, into: 3) == [0..<3, 3..<6, 6..<10])
        #expect(Intervals.split(0..<2, into: 5) == [0..<1, 1..<2])
        #expect(Intervals.split(0..<10, into: 1) == [0..<10])
    }

    @Test(
        "a list the span before the range shows dense starts in pieces; a short or unknown one starts whole",
        arguments: [
            // expected objects over a day before the range, the range's window, the pieces
            (2_000, 86_400, 4), (2_000, 43_200, 2), (1_200, 86_400, 3), (799, 86_400, 1), (0, 86_400, 1),
            (50_000, 86_400, 4), (2_000, 7 * 86_400, 4),
        ])
    func piecesByTheDensityBefore(expected: Int, window: Int64, pieces: Int) {
        // At Stripe's 25 requests/s per endpoint: at most 4 pieces in flight over its usual round trip, each
        // expected to hold 4 pages or more.
        let cut = Extractor.pieces(0..<window, density: Double(expected) / 86_400, endpointRate: 25)
        #expect(cut.count == pieces)
        #expect(cut.first?.lowerBound == 0 && cut.last?.upperBound == window)
        #expect(zip(cut, cut.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }
}
