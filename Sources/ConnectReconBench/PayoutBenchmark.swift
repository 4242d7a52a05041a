import Foundation
import History
import ReconCore
import Sandbox

/// (g) A day's run of a platform whose daily payout sweeps thousands of balance transactions (issue 29): a
/// world dense enough that a day's payout pays out 5,000 or more, at Stripe's latency and limits. What counts is the
/// time the run goes on after its own lists are done (the range's, and the balance transactions from its end to
/// Stripe's balance read, which the books list beside them): at most 2 round trips plus the payout's pages at the
/// endpoint's rate, where one cursor would take a round trip a page. The same run then extracts the week that ends
/// with that day, and both report their share of the rate-limit bound.
struct PayoutBenchmark {
    var charges: Int
    var days: Int
    var folder: URL

    func run(log: @escaping @Sendable (String) -> Void) async throws -> [Figure] {
        let server = try await SandboxServer.start(
            ExtractionBenchmark.sandboxAtStripesLimits(charges: charges, days: days, hours: 4))
        let start = Int64(server.world.start.timeIntervalSince1970)
        let now = Int64(server.world.end.timeIntervalSince1970)
        // The day before the last whole one: the sandbox's payouts of the last day and a half are still being
        // reconciled by Stripe (`in_progress`), and only a completed payout's list is read.
        let from = start + Int64(days - 2) * 86_400
        let to = from + 86_400
        log("payout: sandbox \(server.summary)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bench = ExtractionBenchmark(charges: charges, days: days, folder: folder)
        let observed = try await bench.observedExtraction(
            server: server, range: from..<to, now: now,
            into: ExtractionBenchmark.freshSQLiteHistory(folder.appendingPathComponent("payout.sqlite").path),
            options: ExtractionBenchmark.options())
        let week = try await bench.observedExtraction(
            server: server, range: (to - 7 * 86_400)..<to, now: now,
            into: ExtractionBenchmark.freshSQLiteHistory(folder.appendingPathComponent("payout-week.sqlite").path),
            options: ExtractionBenchmark.options())
        try await server.shutdown()

        let timeline = observed.timeline
        let payoutRequests = timeline.events { _, query in query.contains { $0.name == "payout" } }
        let runLists = timeline.events { path, query in
            ExtractionBenchmark.listPaths.contains(path)
                && !query.contains { $0.name == "payout" || $0.name == "transfer_group" }
                && query.contains { $0.name == "created[gte]" && Int64($0.value ?? "") ?? 0 >= from }
        }
        let listsEnd = runLists.map(\.end).max() ?? 0
        // The largest payout: the one with the most requests.
        let byPayout = Dictionary(grouping: payoutRequests) { event in
            event.query.first { $0.name == "payout" }?.value ?? ""
        }
        guard let (payout, requests) = byPayout.max(by: { $0.value.count < $1.value.count }) else {
            return [Figure("**(g) a long payout**", "no completed payout in the range")]
        }
        let input = try HistoryStore.open(
            path: folder.appendingPathComponent("payout.sqlite").path
        ).parts
        var transactions = 0
        try input.forEach(from: from, to: to, asOf: now, skippedTransferGrace: ExtractionBenchmark.grace) { part in
            transactions += part.payoutTransactions.count { $0.payoutID == payout }
        }
        let roundTrip = ExtractionBenchmark.latency.inSeconds
        let pages = Double(transactions) / 100
        // The run's time after its lists: until its last request ended, whichever it was (the payout's list was
        // the run's tail before its pages went ahead of the range's list). Its lists are the range's and the window
        // after it up to Stripe's balance read: the same endpoint's work, which of them ends last is the order of
        // its slots (the longest chains first since issue 39), not time the payout added.
        let runEnd = timeline.events { _, _ in true }.map(\.end).max() ?? 0
        let after = max(0, runEnd - listsEnd)
        let bound = 2 * roundTrip + pages / ExtractionBenchmark.endpointLimit
        log(
            "payout: \(payout) \(transactions) transactions in \(requests.count) requests from "
                + "\(Format.seconds(requests.map(\.start).min() ?? 0)) to \(Format.seconds(requests.map(\.end).max() ?? 0)); "
                + "the run's lists ended at \(Format.seconds(listsEnd)), the run's last request at "
                + "\(Format.seconds(runEnd))")
        return [
            Figure(
                "**(g) a long payout**",
                "\(Format.count(charges)) charges over \(days) days 4 h; the day before the last, its largest payout "
                    + "\(Format.count(transactions)) transactions in \(requests.count) requests",
                target: "latency 150 ms, 100/s, 25/s per endpoint"),
            Self.share("the day (nightly run): share of the bound", observed),
            Self.share("the week ending that day: share of the bound", week),
            Figure.atMost(
                "the run's time after its lists (the range's and the window after it)", after, bound,
                format: Format.seconds,
                targetText: "≤ 2 RTT + pages/25 = \(Format.seconds(bound)) (one cursor: "
                    + "\(Format.seconds(pages.rounded(.up) * roundTrip)))"),
        ]
    }
}

extension PayoutBenchmark {
    /// A run's share of the rate-limit bound, `max(requests/100, busiest endpoint/25) + 1 RTT` over its time.
    static func share(_ label: String, _ observed: ExtractionBenchmark.Observation) -> Figure {
        let busiest = observed.byEndpoint.max { $0.value < $1.value } ?? (key: "none", value: 0)
        let bound =
            max(
                Double(observed.requests) / ExtractionBenchmark.globalLimit,
                Double(busiest.value) / ExtractionBenchmark.endpointLimit) + ExtractionBenchmark.latency.inSeconds
        return Figure.atLeast(
            "\(label) (max(req/100, busiest/25) + 1 RTT)", bound / observed.seconds, 0.95, format: Format.percent,
            targetText: "\(Format.seconds(observed.seconds)) for \(Format.count(observed.requests)) requests, "
                + "\(busiest.value) of them \(busiest.key): bound \(Format.seconds(bound))")
    }
}

extension TimelineTransport {
    /// The requests `isPicked` picks by their path and query, with when they started and ended.
    func events(
        where isPicked: (_ path: String, _ query: [URLQueryItem]) -> Bool
    ) -> [(query: [URLQueryItem], start: Double, end: Double)] {
        recorded.compactMap { event in
            let query = URLComponents(url: event.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            return isPicked(event.path, query) ? (query, event.start, event.end) : nil
        }
    }
}
