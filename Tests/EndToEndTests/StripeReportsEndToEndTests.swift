import CurlTransport
import Foundation
import Logging
import ReconCore
import Sandbox
import StripeAPI
import TestSupport
import Testing

/// Stripe's Reporting API end to end: the report runner, the real client and the libcurl transport against the
/// sandbox's report types, runs and files.
@Suite struct StripeReportsEndToEndTests {
    static let day: Int64 = 86_400

    /// Runs `body` with a sandbox configured by `configure` and a runner reaching it with `key`.
    static func withRunner<T>(
        key: String = "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
        polling: ReportPolling = ReportPolling(
            firstDelay: .milliseconds(10), maxDelay: .milliseconds(50), limit: .seconds(10)),
        _ configure: (inout SandboxOptions) -> Void = { _ in },
        _ body: (SandboxServer, StripeReportRunner) async throws -> T
    ) async throws -> T {
        var options = SandboxOptions()
        options.charges = 400
        options.seed = 21
        options.days = 12
        configure(&options)
        let server = try await SandboxServer.start(options)
        let transport = try CurlHTTPTransport(
            configuration: CurlTransportConfiguration(
                connectTimeout: .seconds(5), requestTimeout: .seconds(10), maxConcurrentRequests: 4))
        let client = StripeClient(
            configuration: StripeClientConfiguration(
                baseURL: server.baseURL, key: try APIKey(key), stripeVersion: "2026-07-29.dahlia",
                retryPolicy: RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(10))),
            transport: transport, budget: RequestBudget(globalRate: 1_000, endpointRate: 1_000),
            logger: Logger(label: "reports-end-to-end"))
        let runner = StripeReportRunner(client: client, polling: polling, logger: Logger(label: "reports-end-to-end"))
        do {
            let result = try await body(server, runner)
            transport.shutdown()
            try await server.shutdown()
            return result
        } catch {
            transport.shutdown()
            try? await server.shutdown()
            throw error
        }
    }

    @Test func theRunnerReadsBothReportsOfEveryCurrencyAndTheyMatchTheServedBalanceTransactions() async throws {
        try await Self.withRunner { server, runner in
            // Given the interval the sandbox has published, and its balance transactions as served
            let start = Int64(server.world.start.timeIntervalSince1970)
            let to = start + 11 * Self.day
            let from = start + 3 * Self.day
            let transactions = try WireConnection(port: server.port, key: "sk_test_4eC39HqLyjWDarjtT1zdp7dc").list(
                "/v1/balance_transactions?limit=100")

            // When the runner asks for three currencies' summaries
            let all = try await runner.summaries(from: from, to: to, currencies: [.usd, .jpy, .bhd])

            // Then each report arrived, and adds up to what the transactions say
            #expect(all.map(\.currency) == [.usd, .jpy, .bhd])
            for summaries in all {
                let balance = try #require(summaries.balance.report, "\(summaries.balance)")
                let activity = try #require(summaries.activity.report, "\(summaries.activity)")
                let mine = transactions.filter {
                    $0["currency"] as? String == summaries.currency.rawValue
                        && $0["balance_type"] as? String == "payments"
                }
                func net(_ bt: [String: Any]) -> Int64 { (bt["net"] as? NSNumber)?.int64Value ?? 0 }
                func date(_ bt: [String: Any]) -> Int64 {
                    let key = bt["type"] as? String == "payout" ? "available_on" : "created"
                    return (bt[key] as? NSNumber)?.int64Value ?? 0
                }
                let before = mine.filter { date($0) < from }.reduce(Int64(0)) { $0 + net($1) }
                let inside = mine.filter { date($0) >= from && date($0) < to }
                let isPayout = { (bt: [String: Any]) in
                    ["payout", "payout_reversal"].contains(bt["reporting_category"] as? String ?? "")
                }
                #expect(balance.starting == before)
                #expect(balance.payouts == inside.filter(isPayout).reduce(Int64(0)) { $0 + net($1) })
                #expect(balance.activity == activity.net.values.reduce(0, +))
                #expect(balance.ending == balance.starting + balance.activity + balance.payouts)
                let charges = inside.filter { $0["reporting_category"] as? String == "charge" }
                #expect(activity.rows["charge"]?.count == Int64(charges.count))
                #expect(activity.rows["charge"]?.net == charges.reduce(Int64(0)) { $0 + net($1) })
            }
            #expect(all.contains { $0.balance.report?.payouts != 0 })
        }
    }

    @Test func aFailingRunANeverEndingRunAnUnpublishedIntervalAndAForbiddenKeyAreOutcomes() async throws {
        let failed = try await Self.withRunner({ $0.reportRunsFail = true }) { server, runner in
            let start = Int64(server.world.start.timeIntervalSince1970)
            return try await runner.summaries(from: start, to: start + Self.day, currency: .usd).balance
        }
        guard case .failed(let reason) = failed else {
            Issue.record("expected failed, got \(failed)")
            return
        }
        #expect(reason.contains("failed"))

        let stuck = try await Self.withRunner(
            polling: ReportPolling(
                firstDelay: .milliseconds(10), maxDelay: .milliseconds(20), limit: .milliseconds(200)),
            { $0.reportRunsNeverFinish = true }
        ) { server, runner in
            let start = Int64(server.world.start.timeIntervalSince1970)
            return try await runner.summaries(from: start, to: start + Self.day, currency: .gbp).activity
        }
        guard case .timedOut = stuck else {
            Issue.record("expected timedOut, got \(stuck)")
            return
        }

        let (late, end) = try await Self.withRunner { server, runner in
            let end = Int64(server.world.end.timeIntervalSince1970)
            return (try await runner.summaries(from: end - 3 * Self.day, to: end, currency: .usd), end)
        }
        // The world ends at a midnight: its last day is published only 12 hours later.
        #expect(late.balance == .notYetPublished(dataAvailableEnd: end - Self.day))
        #expect(late.activity == .notYetPublished(dataAvailableEnd: end - Self.day))

        let forbidden = try await Self.withRunner(
            key: "rk_test_4eC39HqLyjWDarjtT1zdp7dc", { $0.restrictedKeyForbiddenResources = ["reporting"] }
        ) { server, runner in
            let start = Int64(server.world.start.timeIntervalSince1970)
            return try await runner.summaries(from: start, to: start + Self.day, currency: .usd)
        }
        guard case .notPermitted = forbidden.balance, case .notPermitted = forbidden.activity else {
            Issue.record("expected notPermitted, got \(forbidden)")
            return
        }
    }
}
