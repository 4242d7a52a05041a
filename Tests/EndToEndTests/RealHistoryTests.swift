import CurlTransport
import Extract
import Foundation
import Logging
import ReconCore
import Reconcile
import Sandbox
import SandboxTruth
import StripeAPI
import TestSupport
import Testing

@testable import History

/// Extraction and reconciliation of ranges that sit inside a longer history, as a real platform's do: refunds,
/// disputes and reversals of older charges arrive in the range, and the range's own charges are refunded and
/// disputed after it. Each range of the extraction benchmark (a nightly day a few hours before now, a week in the
/// middle, a month-old day run again) and a range whose charges' refunds and disputes all come after it is
/// extracted from the sandbox into a history, reconciled from it, and compared with the ground truth row by row.
@Suite("A range inside a longer history, extracted and reconciled, against the ground truth", .serialized)
struct RealHistoryTests {
    static let day: Int64 = 86_400
    static let grace: Int64 = 3_600
    /// The benchmark's world, smaller: 60 days and 4 hours, 80 charges a day.
    static let days = 60
    static let hours = 4

    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var firstDay: Int64
        var days: Int64
        var testDescription: String { name }
    }

    static let scenarios = [
        Scenario(name: "nightly", firstDay: Int64(days - 1), days: 1),
        Scenario(name: "a week in the middle", firstDay: Int64(days / 2 - 4), days: 7),
        Scenario(name: "a month-old day", firstDay: Int64(days - 31), days: 1),
    ]

    @Test(arguments: scenarios)
    func aRangeOfTheBenchmarkMatchesTheGroundTruth(_ scenario: Scenario) async throws {
        // Given the sandbox's history and one of the benchmark's ranges
        let sandbox = try await Self.sandbox()
        let from = sandbox.start + scenario.firstDay * Self.day
        let to = from + scenario.days * Self.day
        // When the range is extracted and reconciled from the history
        let (store, folder) = try await Self.extract(sandbox, from: from, to: to)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = Reconciler.reconcile(
            try store.parts.whole(
                from: from, to: to, asOf: sandbox.now, skippedTransferGrace: Self.grace))
        // Then every report is the ground truth's
        let truth = try Self.truth(sandbox, from: from, to: to)
        GroundTruthComparison.expectMatches(report, truth)
        // And a payout Stripe is still reconciling is shown without figures, and its partial list was not even read
        // (the nightly range's payouts are all still being reconciled)
        let inProgress = Set(report.payouts.filter { $0.reconciliationStatus == "in_progress" }.map(\.payoutID))
        #expect(report.payouts.filter { inProgress.contains($0.payoutID) }.allSatisfy { $0.difference == nil })
        let links = try store.parts.whole(
            from: from, to: to, asOf: sandbox.now, skippedTransferGrace: Self.grace
        ).payoutTransactions
        #expect(!links.contains { inProgress.contains($0.payoutID) })
        if scenario.name == "nightly" { #expect(!inProgress.isEmpty && inProgress.count == report.payouts.count) }
        // And the history holds older charges (of the range's refunds and disputes) but none of their balance
        // transactions, which no rule reads, except those the range's completed payouts paid out
        let older = try store.objects.facts(ChargeFacts.self, createdFrom: 0, to: from)
        #expect(!older.isEmpty)
        let stored = Set(try store.objects.ids(of: .balanceTransaction, createdFrom: 0, to: .max))
        let paidOut = Set(links.map(\.balanceTransactionID))
        #expect(paidOut.isEmpty == (scenario.name == "nightly"))
        let olderTransactions = Set(older.compactMap(\.balanceTransactionID)).intersection(stored).subtracting(paidOut)
        #expect(olderTransactions.isEmpty, "balance transactions of older charges: \(olderTransactions.prefix(3))")
        try await sandbox.server.shutdown()
    }

    @Test func aRangeWhoseChargesAreRefundedAndDisputedOnlyAfterItMatchesTheGroundTruth() async throws {
        // Given ten minutes starting with a destination charge that was disputed: refunds come at least ten minutes after their
        // charge settles and disputes at least a day after, so whatever befell the range's charges came after it
        let sandbox = try await Self.sandbox()
        let world = sandbox.server.world
        let destination = Set(
            world.ids(for: .applicationFee) + world.ids(for: .transferAmount) + world.ids(for: .fullTransfer))
        let disputed = try #require(world.ids(for: .disputeAcrossBoundary).first { destination.contains($0) })
        let from = try Self.created(of: disputed, in: sandbox.server.world)
        let to = from + 600
        // When the range is extracted and reconciled from the history
        let (store, folder) = try await Self.extract(sandbox, from: from, to: to)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = Reconciler.reconcile(
            try store.parts.whole(
                from: from, to: to, asOf: sandbox.now, skippedTransferGrace: Self.grace))
        // Then the range's charges had disputes (and maybe refunds) only after it, and the reports are the truth's
        let disputes = try store.objects.facts(DisputeFacts.self, createdFrom: 0, to: .max)
        #expect(disputes.contains { $0.chargeID == disputed && $0.created >= to })
        let refunds = try store.objects.facts(RefundFacts.self, createdFrom: 0, to: .max)
        #expect(!refunds.contains { $0.created >= from && $0.created < to })
        let truth = try Self.truth(sandbox, from: from, to: to)
        GroundTruthComparison.expectMatches(report, truth, withPayouts: !truth.payouts.isEmpty)
        try await sandbox.server.shutdown()
    }

    // MARK: Support

    struct Sandbox {
        var server: SandboxServer
        var start: Int64
        var now: Int64
    }

    static func sandbox() async throws -> Sandbox {
        var options = SandboxOptions()
        options.charges = 80 * days
        options.days = days
        options.hours = hours
        options.start = Date(timeIntervalSince1970: 1_788_220_800)  // 2026-09-01
        let server = try await SandboxServer.start(options)
        return Sandbox(
            server: server, start: Int64(server.world.start.timeIntervalSince1970),
            now: Int64(server.world.end.timeIntervalSince1970))
    }

    static func truth(_ sandbox: Sandbox, from: Int64, to: Int64) throws -> GroundTruth {
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: TimeInterval(from)), to: Date(timeIntervalSince1970: TimeInterval(to)),
            timeZone: .gmt)
        return sandbox.server.world.groundTruth(
            for: range, asOf: Date(timeIntervalSince1970: TimeInterval(sandbox.now)),
            skippedTransferGrace: TimeInterval(grace))
    }

    static func created(of id: String, in world: SandboxWorld) throws -> Int64 {
        let json = try #require(world.renderedObject(id: id))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        return try #require((object["created"] as? NSNumber)?.int64Value)
    }

    /// Extracts `[from, to)` at the world's end into a new history, as `connect-recon extract` would.
    static func extract(_ sandbox: Sandbox, from: Int64, to: Int64) async throws -> (HistoryStore, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("real-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try HistoryStore.open(path: folder.appendingPathComponent("history.sqlite").path)
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: TimeInterval(from)), to: Date(timeIntervalSince1970: TimeInterval(to)),
            timeZone: .gmt)
        let (runID, _) = try store.runs.beginRun(
            RunStart(
                command: "extract", range: range, mode: .test, toolVersion: "test", stripeVersion: "2026-07-29.dahlia",
                apiBase: sandbox.server.baseURL.absoluteString, startedAt: sandbox.now, pid: 1))
        let transport = try CurlHTTPTransport(
            configuration: CurlTransportConfiguration(
                connectTimeout: .seconds(5), requestTimeout: .seconds(10), maxConcurrentRequests: 16))
        defer { transport.shutdown() }
        let client = StripeClient(
            configuration: StripeClientConfiguration(
                baseURL: sandbox.server.baseURL, key: try APIKey("sk_test_4eC39HqLyjWDarjtT1zdp7dc"),
                stripeVersion: "2026-07-29.dahlia", retryPolicy: RetryPolicy(maxRetries: 4)),
            transport: transport, budget: RequestBudget(globalRate: 1_000, endpointRate: 1_000),
            logger: Logger(label: "real-history-tests"))
        let extractor = Extractor(
            client: client, store: store, options: Extractor.Options(concurrency: 16, settleMargin: 300),
            logger: Logger(label: "real-history-tests"))
        _ = try await extractor.extract(from: from, to: to, runID: runID, now: sandbox.now)
        try store.runs.finishRun(runID, status: .completed, finishedAt: sandbox.now, message: nil, details: nil)
        return (store, folder)
    }
}
