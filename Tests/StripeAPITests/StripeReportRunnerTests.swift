import Foundation
import Logging
import ReconCore
import TestSupport
import Testing

@testable import StripeAPI

@Suite("Stripe report runner")
struct StripeReportRunnerTests {
    static let testKey = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
    static let liveKey = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"

    /// A runner over `api` whose polls, back-offs and budget waits pass on a manual clock, in no real time.
    static func runner(
        _ api: FakeReportingAPI, key: String = testKey, polling: ReportPolling = ReportPolling()
    ) throws -> StripeReportRunner {
        let clock = ManualClock(advancesToEachSleeper: true)
        let configuration = StripeClientConfiguration(
            baseURL: try #require(URL(string: "http://127.0.0.1:12111")), key: try APIKey(key),
            stripeVersion: "2026-07-29.dahlia",
            retryPolicy: RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(1), maxDelay: .milliseconds(5)))
        let client = StripeClient(
            configuration: configuration, transport: api,
            budget: RequestBudget(globalRate: 10_000, endpointRate: 10_000, clock: clock),
            logger: Logger(label: "test"), clock: clock)
        return StripeReportRunner(client: client, polling: polling, logger: Logger(label: "test"), clock: clock)
    }

    static let day: Int64 = 86_400

    @Test func bothReportsArriveAfterPollsWithExplicitColumnsAndAtMostThreeRequestsEachBesidesPolls() async throws {
        // Given Stripe's Reporting API answering pending twice, then succeeded
        let api = FakeReportingAPI()

        // When the runner asks for one currency's summaries
        let summaries = try await Self.runner(api).summaries(from: 0, to: Self.day, currency: .usd)

        // Then both reports are read, in minor units
        #expect(
            summaries.balance
                == .report(
                    BalanceSummaryReport(
                        currency: .usd, intervalStart: 0, intervalEnd: Self.day, starting: 10_000, activity: -6_000,
                        payouts: -3_000, ending: 1_000)))
        #expect(summaries.activity.report?.net == ["charge": 1_900, "refund": -7_900])
        // And each report took one type read, one create and one download, plus three polls
        #expect(api.requests(.get, "/v1/reporting/report_types/").count == 2)
        #expect(api.requests(.post, "/v1/reporting/report_runs").count == 2)
        #expect(api.requests(.get, "/v1/reporting/report_runs/").count == 6)
        #expect(api.requests(.get, "/v1/files/").count == 2)
        // And the create named the interval, the currency and the columns, in order
        let create = try #require(
            api.requests(.post, "/v1/reporting/report_runs").first {
                FakeReportingAPI.form($0).contains { $0 == ("report_type", "balance.summary.1") }
            })
        let form = FakeReportingAPI.form(create)
        #expect(form.first { $0.0 == "parameters[interval_start]" }?.1 == "0")
        #expect(form.first { $0.0 == "parameters[interval_end]" }?.1 == "86400")
        #expect(form.first { $0.0 == "parameters[currency]" }?.1 == "usd")
        #expect(
            form.filter { $0.0 == "parameters[columns][]" }.map(\.1)
                == ["category", "description", "net_amount", "currency"])
        #expect(create.headers.contains { $0.name == "Idempotency-Key" && !$0.value.isEmpty })
        #expect(
            create.headers.contains { $0.name == "Content-Type" && $0.value == "application/x-www-form-urlencoded" })
        // And the download carried the key to the API's own host
        let download = try #require(api.requests(.get, "/v1/files/").first)
        #expect(download.url.host == "127.0.0.1")
        #expect(download.headers.contains { $0.name == "Authorization" && $0.value == "Bearer \(Self.testKey)" })
    }

    @Test func theReportTypesAreReadOnceForEveryCurrency() async throws {
        let api = FakeReportingAPI()

        let all = try await Self.runner(api).summaries(from: 0, to: Self.day, currencies: [.usd, .eur, .jpy])

        #expect(all.map(\.currency) == [.usd, .eur, .jpy])
        #expect(api.requests(.get, "/v1/reporting/report_types/").count == 2)
        #expect(api.requests(.post, "/v1/reporting/report_runs").count == 6)
    }

    @Test func aFailedRunIsAnOutcomeWithStripesError() async throws {
        var script = FakeReportingAPI.Script()
        script.finalStatus = "failed"
        script.finalError = "Report generation timed out on our side."
        let api = FakeReportingAPI(script)

        let summaries = try await Self.runner(api).summaries(from: 0, to: Self.day, currency: .usd)

        guard case .failed(let reason) = summaries.balance else {
            Issue.record("expected failed, got \(summaries.balance)")
            return
        }
        #expect(reason.contains("Report generation timed out on our side."))
        #expect(api.requests(.get, "/v1/files/").isEmpty)
    }

    @Test func aRunThatNeverFinishesTimesOutAtTheBoundWithBackOff() async throws {
        var script = FakeReportingAPI.Script()
        script.pollsBeforeDone = nil
        let api = FakeReportingAPI(script)

        let summaries = try await Self.runner(api).summaries(from: 0, to: Self.day, currency: .usd)

        #expect(summaries.balance == .timedOut(runID: "frr_balance.summary.1", waitedSeconds: 600))
        #expect(summaries.activity.message?.contains("still pending after 600 s") == true)
        // 0.5, 1, 2, 4, 8, 16 s, then every 30 s, and one last at the bound: at most 25 polls, not one a second. Fewer
        // when the other report's waits move the shared manual clock on further (how far depends on how the two
        // reports' tasks interleave: 3 polls seen on a loaded machine), but never a single poll before giving up.
        let polls = api.requests(.get, "/v1/reporting/report_runs/frr_balance.summary.1").count
        #expect((2...30).contains(polls), "\(polls) polls")
    }

    @Test func anIntervalEndingAfterThePublishedDataCreatesNoRun() async throws {
        var script = FakeReportingAPI.Script()
        script.dataAvailableEnd = Self.day
        let api = FakeReportingAPI(script)

        let summaries = try await Self.runner(api).summaries(from: 0, to: 2 * Self.day, currency: .usd)

        #expect(summaries.balance == .notYetPublished(dataAvailableEnd: Self.day))
        #expect(summaries.activity == .notYetPublished(dataAvailableEnd: Self.day))
        #expect(api.requests(.post, "/v1/reporting/report_runs").isEmpty)
    }

    static let forbidden =
        #"{"error":{"type":"invalid_request_error","message":"The provided key 'rk_test_****' does not have the required permissions for this endpoint."}}"#

    @Test func forbiddenReportTypeIsNotPermittedAndCreatesNoRun() async throws {
        var script = FakeReportingAPI.Script()
        script.typeError = (403, Self.forbidden)
        let api = FakeReportingAPI(script)

        let summaries = try await Self.runner(api).summaries(from: 0, to: Self.day, currency: .usd)

        guard case .notPermitted(let reason) = summaries.balance else {
            Issue.record("expected notPermitted, got \(summaries.balance)")
            return
        }
        #expect(reason.contains("HTTP 403"))
        #expect(api.requests(.post, "/v1/reporting/report_runs").isEmpty)
    }

    @Test(arguments: [
        (403, forbidden),
        (
            400,
            #"{"error":{"type":"invalid_request_error","param":"report_type","message":"This report type is only available in live mode."}}"#
        ),
    ])
    func aCreateRefusedForTheKeyIsNotPermitted(status: Int, body: String) async throws {
        var script = FakeReportingAPI.Script()
        script.createError = (status, body)
        let api = FakeReportingAPI(script)

        let summaries = try await Self.runner(api).summaries(from: 0, to: Self.day, currency: .usd)

        guard case .notPermitted(let reason) = summaries.activity else {
            Issue.record("expected notPermitted, got \(summaries.activity)")
            return
        }
        #expect(reason.hasPrefix("POST /v1/reporting/report_runs failed with HTTP \(status)"))
    }

    @Test func anInvalidIntervalIsAFailureNotAPermissionProblem() async throws {
        var script = FakeReportingAPI.Script()
        script.createError = (
            400,
            #"{"error":{"type":"invalid_request_error","param":"parameters[interval_end]","message":"interval_end is too late"}}"#
        )
        let api = FakeReportingAPI(script)

        let summaries = try await Self.runner(api).summaries(from: 0, to: Self.day, currency: .usd)

        guard case .failed = summaries.balance else {
            Issue.record("expected failed, got \(summaries.balance)")
            return
        }
    }

    @Test(arguments: [
        "https://evil.example.com/v1/files/FILE/contents", "https://files.stripe.com/v1/files/FILE/contents",
        "http://127.0.0.1:9999/v1/files/FILE/contents", "https://127.0.0.1:12111/v1/files/FILE/contents",
    ])
    func aFileOnAnotherHostIsRefusedWithoutARequestToIt(url: String) async throws {
        // Given a test key, and a run whose file is anywhere but the API's own scheme, host and port
        var script = FakeReportingAPI.Script()
        script.fileURL = { url.replacingOccurrences(of: "FILE", with: $0) }
        let api = FakeReportingAPI(script)

        // When the runner gets to the download
        let summaries = try await Self.runner(api).summaries(from: 0, to: Self.day, currency: .usd)

        // Then the file's host is refused, and nothing was sent to it (nor anything else downloaded)
        let host = try #require(URL(string: url)?.host)
        #expect(summaries.balance == .refusedHost(host: host))
        #expect(summaries.balance.message?.contains("'\(host)'") == true)
        #expect(summaries.balance.message?.contains("the API key was not sent") == true)
        #expect(api.requests(.get, "/v1/files/").isEmpty)
        #expect(api.requests.allSatisfy { $0.url.host == "127.0.0.1" && $0.url.port == 12111 })
    }

    @Test func aLiveKeyDownloadsFromStripesFilesHostOverHTTPSOnly() async throws {
        var script = FakeReportingAPI.Script()
        script.fileURL = { "https://files.stripe.com/v1/files/\($0)/contents" }
        let api = FakeReportingAPI(script)

        let summaries = try await Self.runner(api, key: Self.liveKey).summaries(
            from: 0, to: Self.day, currency: .usd)

        #expect(summaries.balance.report?.ending == 1_000)
        #expect(api.requests(.get, "/v1/files/").allSatisfy { $0.url.host == "files.stripe.com" })

        var downgraded = FakeReportingAPI.Script()
        downgraded.fileURL = { "http://files.stripe.com/v1/files/\($0)/contents" }
        let refused = try await Self.runner(FakeReportingAPI(downgraded), key: Self.liveKey).summaries(
            from: 0, to: Self.day, currency: .usd)
        #expect(refused.balance == .refusedHost(host: "files.stripe.com"))
    }

    @Test func aFileMissingAColumnWithAnUnknownCategoryOrAMalformedAmountIsAFailureNamingIt() async throws {
        var script = FakeReportingAPI.Script()
        script.csv["balance.summary.1"] = "category,description,currency\nstarting_balance,x,usd\n"
        script.csv["balance_change_from_activity.summary.1"] =
            "reporting_category,currency,count,gross,fee,net\ncharge,usd,1,1.00,0.00,1.0O\n"
        let api = FakeReportingAPI(script)

        let summaries = try await Self.runner(api).summaries(from: 0, to: Self.day, currency: .usd)

        #expect(summaries.balance.message?.contains("no 'net_amount' column") == true)
        #expect(summaries.activity.message?.contains("row 1, column 'net'") == true)

        var unknown = FakeReportingAPI.Script()
        unknown.csv["balance.summary.1"] = "category,net_amount,currency\nstarting_balance,1.00,usd\nreserve,1.00,usd\n"
        let other = try await Self.runner(FakeReportingAPI(unknown)).summaries(from: 0, to: Self.day, currency: .usd)
        #expect(other.balance.message?.contains("'reserve'") == true)
    }

    @Test func cancellationIsThrown() async throws {
        var script = FakeReportingAPI.Script()
        script.pollsBeforeDone = nil
        let runner = try Self.runner(FakeReportingAPI(script), polling: ReportPolling(limit: .seconds(1_000_000)))
        let task = Task { try await runner.summaries(from: 0, to: Self.day, currency: .usd) }
        task.cancel()

        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
