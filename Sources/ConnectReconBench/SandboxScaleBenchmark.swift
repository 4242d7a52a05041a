import CurlTransport
import Foundation
import Sandbox
import StripeAPI

/// Scenario `sandbox-scale`: the sandbox holding a million charges starts in under a minute, fits in 2 GiB, and
/// serves a page of 100 (plain, expanded, deep behind a cursor, under a window, filtered) or a retrieve in
/// milliseconds. Start time, memory and each request's median of five are printed; a check that fails makes the
/// benchmark exit 1.
struct SandboxScaleBenchmark {
    var charges: Int

    /// The longest start (generate the world and listen) allowed.
    static let startLimit = 60.0
    /// The most resident memory allowed after the start.
    static let memoryLimit: UInt64 = 2 << 30
    /// The longest median of a page's five requests allowed.
    static let pageLimit = 0.2

    func run(log: (String) -> Void) async throws -> [Figure] {
        var options = SandboxOptions()
        options.charges = charges
        options.seed = 42
        let before = Machine.residentBytes() ?? 0
        let watch = Stopwatch()
        let server = try await SandboxServer.start(options)
        let start = watch.seconds
        let resident = Machine.residentBytes() ?? 0
        let peak = Machine.peakResidentBytes() ?? 0
        log("sandbox-scale: \(server.summary)")
        var figures = [
            Figure("charges in the world", Format.count(charges)),
            Figure("objects in the world", Format.count(server.world.counts.values.reduce(0, +))),
            Figure.required(
                "start (generate the world and listen)", start, atMost: Self.startLimit, format: Format.seconds),
            Figure.required(
                "resident memory after the start (\(Format.bytes(before)) before, peak \(Format.bytes(peak)))",
                Double(resident), atMost: Double(Self.memoryLimit), format: { Format.bytes(UInt64($0)) }),
        ]
        do {
            figures += try await pages(server, log: log)
            try await server.shutdown()
        } catch {
            try? await server.shutdown()
            throw error
        }
        figures.append(Figure("resident memory after serving", Format.bytes(Machine.residentBytes() ?? 0)))
        return figures
    }

    /// Five requests of each kind on one connection, checked for a 200 and timed.
    private func pages(_ server: SandboxServer, log: (String) -> Void) async throws -> [Figure] {
        let transport = try ExtractionBenchmark.transport(concurrency: 1)
        defer { transport.shutdown() }
        func get(_ path: String) async throws -> HTTPResponse {
            guard let url = URL(string: server.baseURL.absoluteString + path) else {
                throw BenchError("sandbox-scale: cannot make a URL of \(path)")
            }
            return try await transport.get(
                HTTPRequest(url: url, headers: [(name: "Authorization", value: "Bearer \(ExtractionBenchmark.key)")]))
        }
        let newestPage = try JSONSerialization.jsonObject(with: try await get("/v1/charges?limit=1").body)
        let newest = ((newestPage as? [String: Any])?["data"] as? [[String: Any]])?.first?["id"] as? String ?? ""
        let plainCharges = server.world.ids(for: .plainCharge)
        let deep = plainCharges.isEmpty ? "" : plainCharges[min(charges / 10, plainCharges.count - 1)]
        let requests: [(name: String, path: String)] = [
            ("a page of 100 charges", "/v1/charges?limit=100"),
            (
                "the same page with 3 expansions",
                "/v1/charges?limit=100&expand[]=data.payment_intent&expand[]=data.balance_transaction"
                    + "&expand[]=data.transfer"
            ),
            ("100 balance transactions, sources expanded", "/v1/balance_transactions?limit=100&expand[]=data.source"),
            ("a page deep in the list (starting_after)", "/v1/charges?limit=100&starting_after=\(deep)"),
            (
                "a page of a day's balance transactions",
                "/v1/balance_transactions?limit=100&created[gte]=1794268800&created[lt]=1794355200"
            ),
            ("a page of one account's transfers", "/v1/transfers?limit=100&destination=\(server.world.accountIDs[3])"),
            ("a retrieve by id", "/v1/charges/\(newest)"),
        ]
        var figures: [Figure] = []
        for request in requests {
            var seconds: [Double] = []
            var bytes = 0
            var statuses: Set<Int> = []
            for _ in 0..<5 {
                let watch = Stopwatch()
                let response = try await get(request.path)
                seconds.append(watch.seconds)
                bytes = response.body.count
                statuses.insert(response.status)
            }
            let median = seconds.sorted()[2]
            log("sandbox-scale: \(request.path.prefix(90)) → \(bytes) bytes, median \(Format.milliseconds(median))")
            guard statuses == [200] else {
                figures.append(Figure.check("\(request.name): status", passed: false, detail: "\(statuses.sorted())"))
                continue
            }
            figures.append(
                Figure.required(
                    "\(request.name) (\(Format.count(bytes)) bytes), median of 5", median, atMost: Self.pageLimit,
                    format: Format.milliseconds))
        }
        return figures
    }
}
