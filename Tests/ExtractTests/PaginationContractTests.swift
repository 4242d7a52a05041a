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
        "the list that decides the run's length starts in pieces of three pages or more, in four when nothing is known",
        arguments: [
            // expected objects over a day before the range (nil: none), the range's window, the pieces
            (2_000, 86_400, 5), (2_000, 43_200, 3), (1_200, 86_400, 4), (799, 86_400, 2), (599, 86_400, 1),
            (nil, 86_400, 4), (0, 86_400, 4), (50_000, 86_400, 5), (2_000, 7 * 86_400, 5),
        ] as [(Int?, Int64, Int)])
    func piecesOfTheListDecidingLength(expected: Int?, window: Int64, pieces: Int) {
        // At Stripe's 25 requests/s per endpoint: at most 5 pieces, the 4 its usual round trip keeps in flight and
        // one waiting.
        expectPieces(expected: expected, window: window, decidesLength: true, pieces: pieces)
    }

    @Test(
        "a list beside it starts in pieces of a page and a half or more, whole when nothing is known",
        arguments: [
            (2_000, 86_400, 5), (450, 86_400, 3), (299, 86_400, 1), (300, 86_400, 2), (300, 43_200, 1),
            (nil, 86_400, 1), (0, 86_400, 1), (50_000, 86_400, 5),
        ] as [(Int?, Int64, Int)])
    func piecesOfAListBeside(expected: Int?, window: Int64, pieces: Int) {
        expectPieces(expected: expected, window: window, decidesLength: false, pieces: pieces)
    }

    @Test("a piece cut by the density splits again only for its cut's pages; one cut blind, as a whole list does")
    func startingStreamsKeepTheirCutsPages() {
        let day: Range<Int64> = 0..<86_400
        let known = Extractor.startingStreams(
            .balanceTransactions, windows: [day], density: 2_000 / 86_400, endpointRate: 25)
        #expect(known.count == 5 && known.allSatisfy { $0.minimumPagesPerPiece == ListPager.piecePages })
        let beside = Extractor.startingStreams(.charges, windows: [day], density: 800 / 86_400, endpointRate: 25)
        #expect(beside.count == 5 && beside.allSatisfy { $0.minimumPagesPerPiece == ListPager.firstPiecePagesBeside })
        let unknown = Extractor.startingStreams(.balanceTransactions, windows: [day], density: nil, endpointRate: 25)
        #expect(unknown.count == 4 && unknown.allSatisfy { $0.minimumPagesPerPiece == ListPager.minimumPagesPerPiece })
        let whole = Extractor.startingStreams(.charges, windows: [day], density: nil, endpointRate: 25)
        #expect(whole.map(\.window) == [day] && whole[0].minimumPagesPerPiece == ListPager.minimumPagesPerPiece)
        // A density of none is nothing known
        let none = Extractor.startingStreams(.balanceTransactions, windows: [day], density: 0, endpointRate: 25)
        #expect(none.count == 4 && none.allSatisfy { $0.minimumPagesPerPiece == ListPager.minimumPagesPerPiece })
        // Every stream carries the density it was cut with, for its precedence.
        #expect((known + beside).allSatisfy { $0.density != nil } && unknown.allSatisfy { $0.density == nil })
    }

    private func expectPieces(expected: Int?, window: Int64, decidesLength: Bool, pieces: Int) {
        let density = expected.map { Double($0) / 86_400 }
        let cut = Extractor.pieces(0..<window, density: density, endpointRate: 25, decidesLength: decidesLength)
        #expect(cut.count == pieces)
        #expect(cut.first?.lowerBound == 0 && cut.last?.upperBound == window)
        #expect(zip(cut, cut.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }
}
