import CurlTransport
import Extract
import Foundation
import History
import Logging
import ReconCore
import StripeAPI

/// Pages Stripe into the history for one range, over libcurl, under the rate budget, as part of a recorded run.
public struct ExtractionJob {
    public var range: ReportingRange
    public var key: APIKey
    public var run: RunSettings
    public var settings: ExtractionSettings
    public var logger: Logger
    public var progress: any ExtractionProgress

    public init(
        range: ReportingRange, key: APIKey, run: RunSettings, settings: ExtractionSettings, logger: Logger,
        progress: any ExtractionProgress
    ) {
        self.range = range
        self.key = key
        self.run = run
        self.settings = settings
        self.logger = logger
        self.progress = progress
    }

    /// What the extraction did, for the command's output and the run's details.
    public struct Outcome: Sendable {
        public let summary: ExtractionSummary
        public let statistics: ClientStatistics
        public let seconds: Double
    }

    /// Extracts the range into `recorder`'s history as its run.
    public func run(recorder: RunRecorder) async throws -> Outcome {
        let clock = ContinuousClock()
        let began = clock.now
        let transport = try CurlHTTPTransport(
            configuration: CurlTransportConfiguration(
                connectTimeout: settings.connectTimeout, requestTimeout: settings.requestTimeout,
                maxConcurrentRequests: settings.concurrency, userAgent: "connect-recon/\(run.toolVersion)"))
        defer { transport.shutdown() }
        let budget = RequestBudget(globalRate: settings.globalRate, endpointRate: settings.endpointRate)
        let client = StripeClient(
            configuration: StripeClientConfiguration(
                baseURL: run.apiBaseURL, key: key, stripeVersion: run.stripeVersion,
                retryPolicy: RetryPolicy(maxRetries: settings.maxRetries)),
            transport: transport, budget: budget, logger: logger)
        var options = Extractor.Options(
            concurrency: settings.concurrency, settleMargin: settings.settleMargin,
            lookbackSeconds: run.lookbackSeconds, skippedTransferGrace: run.skippedTransferGrace)
        options.compareWithStripeReports = run.compareWithStripeReports
        options.debitLinkKeys = run.debitLinkKeys
        options.reportPolling.limit = run.stripeReportWait
        let extractor = Extractor(
            client: client, store: recorder.store, options: options, logger: logger, progress: progress)
        let (from, to) = range.unixSeconds
        let summary = try await extractor.extract(from: from, to: to, runID: recorder.runID, now: recorder.unixNow)
        return Outcome(summary: summary, statistics: await client.stats, seconds: (clock.now - began).inSeconds)
    }

    /// The details of an extraction for the run record.
    public static func details(_ outcome: Outcome) -> [String: any Sendable] {
        let summary = outcome.summary
        let statistics = outcome.statistics
        return [
            "objects": summary.objectsByResource, "new": summary.new, "updated": summary.updated,
            "unchanged": summary.unchanged, "pages": summary.pages, "follow_ups": summary.followUps,
            "missing": summary.missing, "late_reads": summary.lateReads, "late_outcomes_seen": summary.lateOutcomes,
            "moved_by_hand": summary.movedByHand,
            "balance_read": summary.balanceRead, "stripe_reports_compared": summary.stripeReportsCompared,
            "requests": statistics.requests, "retries": statistics.retries,
            "rate_limited": statistics.rateLimited, "extract_seconds": outcome.seconds.roundedToMilliseconds,
        ]
    }
}
