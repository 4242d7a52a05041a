import Foundation
import Logging
import ReconCore

/// Asks Stripe's Reporting API for the two summary reports connect-recon compares its balance roll-forward with
/// (`balance.summary.1` and `balance_change_from_activity.summary.1`), per currency over `[from, to)`.
///
/// For each report type it reads the type once (`GET /v1/reporting/report_types/{id}`, shared by every currency);
/// when Stripe has published data up to `to`, it creates a run per currency (`POST /v1/reporting/report_runs` with
/// explicit columns), polls it (``ReportPolling``) until it succeeds or fails, downloads its file with the key (only
/// from a host ``DownloadHostRule`` allows) and reads it by column name (``StripeReportCSV``). That is at most three
/// requests per report and currency besides the polls (and the client's retries).
///
/// Every way a report can be missing is a ``ReportOutcome``, never an error: only cancellation is thrown.
public final class StripeReportRunner: Sendable {
    private let client: StripeClient
    private let polling: ReportPolling
    private let logger: Logger
    /// What the waits between polls sleep on.
    private let clock: ElapsedClock

    /// - Parameter clock: what the waits between polls sleep on: the continuous clock, or a test's own.
    public init<C: Clock>(
        client: StripeClient, polling: ReportPolling = ReportPolling(), logger: Logger, clock: C = ContinuousClock()
    ) where C.Duration == Duration {
        self.client = client
        self.polling = polling
        self.logger = logger
        self.clock = ElapsedClock(clock)
    }

    /// Both summaries for each of `currencies` over `[from, to)` (Unix seconds), in the order of `currencies`.
    ///
    /// - Throws: `CancellationError` only, when the task is cancelled.
    public func summaries(
        from: Int64, to: Int64, currencies: [Currency]
    ) async throws(CancellationError) -> [ReportSummaries] {
        guard !currencies.isEmpty else { return [] }
        let balanceType = await readType(StripeReportCSV.balanceSummary)
        let activityType = await readType(StripeReportCSV.activitySummary)
        try checkCancellation()
        do {
            return try await withThrowingTaskGroup(of: (Int, ReportSummaries).self) { group in
                for (index, currency) in currencies.enumerated() {
                    group.addTask {
                        async let balance = self.run(
                            StripeReportCSV.balanceSummary, type: balanceType,
                            columns: StripeReportCSV.balanceSummaryColumns, from: from, to: to, currency: currency
                        ) { body throws(ReportCSVError) in
                            try StripeReportCSV.balanceSummary(
                                body, currency: currency, intervalStart: from, intervalEnd: to)
                        }
                        async let activity = self.run(
                            StripeReportCSV.activitySummary, type: activityType,
                            columns: StripeReportCSV.activitySummaryColumns, from: from, to: to, currency: currency
                        ) { body throws(ReportCSVError) in
                            try StripeReportCSV.activitySummary(
                                body, currency: currency, intervalStart: from, intervalEnd: to)
                        }
                        return (
                            index,
                            ReportSummaries(
                                currency: currency, balance: try await balance, activity: try await activity)
                        )
                    }
                }
                var results: [ReportSummaries?] = Array(repeating: nil, count: currencies.count)
                for try await (index, summaries) in group { results[index] = summaries }
                return results.compactMap { $0 }
            }
        } catch {
            // The runs throw nothing but cancellation.
            throw CancellationError()
        }
    }

    /// Both summaries for `currency` over `[from, to)` (Unix seconds).
    ///
    /// - Throws: `CancellationError` only, when the task is cancelled.
    public func summaries(from: Int64, to: Int64, currency: Currency) async throws(CancellationError) -> ReportSummaries
    {
        let all = try await summaries(from: from, to: to, currencies: [currency])
        guard let first = all.first else { throw CancellationError() }
        return first
    }

    // MARK: - The report type

    /// What a report type's read said: the end of its published data, or why no run can be made.
    private enum TypeRead: Sendable {
        case available(start: Int64, end: Int64)
        case unavailable(Unavailable)
    }

    /// Why there is no report, whatever its type.
    private enum Unavailable: Error, Sendable {
        case notPermitted(String)
        case failed(String)
        case refusedHost(String)
        case cancelled

        func outcome<Report>() -> ReportOutcome<Report>? {
            switch self {
            case .notPermitted(let reason): .notPermitted(reason: reason)
            case .failed(let reason): .failed(reason: reason)
            case .refusedHost(let host): .refusedHost(host: host)
            case .cancelled: nil
            }
        }
    }

    private func readType(_ id: String) async -> TypeRead {
        let found: ReportType?
        do {
            found = try await client.retrieve(
                ReportType.self, path: "/v1/reporting/report_types/\(id)", endpoint: "/v1/reporting/report_types/:id"
            )?.object
        } catch {
            return .unavailable(unavailable(error, aboutReportType: true))
        }
        guard let type = found else {
            return .unavailable(
                .notPermitted(
                    "Stripe has no report type \(id) for this key (HTTP 404): it is unavailable in this mode."))
        }
        return .available(start: type.dataAvailableStart, end: type.dataAvailableEnd)
    }

    // MARK: - One run

    private func run<Report: Sendable>(
        _ reportType: String, type: TypeRead, columns: [String], from: Int64, to: Int64, currency: Currency,
        parse: @Sendable (Data) throws(ReportCSVError) -> Report
    ) async throws -> ReportOutcome<Report> {
        let outcome: ReportOutcome<Report>
        do {
            outcome = try await attempt(
                reportType, type: type, columns: columns, from: from, to: to, currency: currency, parse: parse)
        } catch {
            guard let outcome: ReportOutcome<Report> = error.outcome() else { throw CancellationError() }
            if Task.isCancelled { throw CancellationError() }
            return outcome
        }
        if let message = outcome.message {
            // The caller sums the outcomes up in one line a range; each is told here at debug level.
            logger.debug(
                "Stripe report not compared",
                metadata: ["report_type": "\(reportType)", "currency": "\(currency)", "reason": "\(message)"])
        }
        return outcome
    }

    /// The run's steps; every way it ends without a report but ``ReportOutcome/notYetPublished(dataAvailableEnd:)``
    /// and ``ReportOutcome/timedOut(runID:waitedSeconds:)`` is thrown as ``Unavailable``.
    private func attempt<Report: Sendable>(
        _ reportType: String, type: TypeRead, columns: [String], from: Int64, to: Int64, currency: Currency,
        parse: @Sendable (Data) throws(ReportCSVError) -> Report
    ) async throws(Unavailable) -> ReportOutcome<Report> {
        let dataStart: Int64
        let dataEnd: Int64
        switch type {
        case .available(let start, let end):
            dataStart = start
            dataEnd = end
        case .unavailable(let reason):
            throw reason
        }
        guard to <= dataEnd else { return .notYetPublished(dataAvailableEnd: dataEnd) }
        guard from >= dataStart else {
            throw .failed(
                "\(reportType) has data only from \(Self.utc(dataStart)), after the interval's start \(Self.utc(from)); "
                    + "no run was created")
        }
        var form: [(String, String)] = [
            ("report_type", reportType), ("parameters[interval_start]", String(from)),
            ("parameters[interval_end]", String(to)), ("parameters[currency]", currency.rawValue),
        ]
        form += columns.map { ("parameters[columns][]", $0) }
        var run: ReportRun
        do {
            run = try await client.post(
                ReportRun.self, path: "/v1/reporting/report_runs", form: form, endpoint: "/v1/reporting/report_runs")
        } catch {
            throw unavailable(error, aboutReportType: true)
        }

        // Poll until it is done or the limit has passed.
        let deadline = clock.now + polling.limit
        var wait = polling.firstDelay
        while run.status != .succeeded && run.status != .failed {
            let remaining = deadline - clock.now
            guard remaining > .zero else {
                return .timedOut(runID: run.id, waitedSeconds: polling.limit.components.seconds)
            }
            do {
                try await clock.sleep(for: min(wait, remaining))
            } catch {
                throw .cancelled
            }
            wait = min(wait * 2, polling.maxDelay)
            let polled: ReportRun?
            do {
                polled = try await client.retrieve(
                    ReportRun.self, path: "/v1/reporting/report_runs/\(run.id)",
                    endpoint: "/v1/reporting/report_runs/:id")?.object
            } catch {
                throw unavailable(error, aboutReportType: false)
            }
            guard let polled else {
                throw .failed("Stripe no longer knows the report run \(run.id) (HTTP 404)")
            }
            run = polled
        }
        if run.status == .failed {
            throw .failed("the report run \(run.id) failed: \(run.error ?? "Stripe gave no reason")")
        }

        // Download and read the file.
        guard let file = run.result, let text = file.url, let url = URL(string: text) else {
            throw .failed("the report run \(run.id) succeeded but names no file URL to download")
        }
        let response: HTTPResponse
        do {
            response = try await client.download(url: url, endpoint: "/v1/files/:id/contents")
        } catch {
            throw unavailable(error, aboutReportType: false)
        }
        do {
            return .report(try parse(response.body))
        } catch {
            throw .failed(error.message)
        }
    }

    /// How a client error ends a report: the key's fault, a refused host, cancellation, or a failure.
    private func unavailable(_ error: StripeClientError, aboutReportType: Bool) -> Unavailable {
        if Task.isCancelled { return .cancelled }
        switch error {
        case .keyWithheld(let host, _):
            return .refusedHost(host)
        case .http(let status, _, _, let summary, _, _):
            if status == 403 { return .notPermitted(error.message) }
            if aboutReportType, status == 400 || status == 404, Self.saysReportTypeUnavailable(summary) {
                return .notPermitted(error.message)
            }
            return .failed(error.message)
        default:
            return .failed(error.message)
        }
    }

    /// Whether Stripe's error is about the report type itself (unknown to the key, live-only in test mode, …)
    /// rather than about the interval or another parameter.
    private static func saysReportTypeUnavailable(_ summary: StripeErrorSummary?) -> Bool {
        guard let summary else { return false }
        if summary.param == "report_type" { return true }
        let text = (summary.message ?? "").lowercased()
        return text.contains("report type") || text.contains("report_type")
    }

    private func checkCancellation() throws(CancellationError) {
        if Task.isCancelled { throw CancellationError() }
    }

    private static func utc(_ seconds: Int64) -> String {
        RFC3339.utcString(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
