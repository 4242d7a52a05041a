import CurlTransport
import Extract
import Foundation
import History
import Logging
import ReconCore
import StripeAPI

/// Pages Stripe into the history for a checked ``RunPreparation``, as part of run `runID`.
struct ExtractionJob {
    let preparation: RunPreparation
    let context: CommandContext

    /// What the extraction did, for the command's output and the run's details.
    struct Outcome {
        let summary: ExtractionSummary
        let statistics: ClientStatistics
        let seconds: Double
    }

    func run(store: HistoryStore, runID: Int64) async throws -> Outcome {
        let configuration = preparation.configuration
        guard let key = preparation.key else { preconditionFailure("extraction needs a key") }
        let logger = preparation.logger
        let clock = ContinuousClock()
        let began = clock.now
        let transport = try CurlHTTPTransport(
            configuration: CurlTransportConfiguration(
                connectTimeout: .seconds(configuration.connectTimeout),
                requestTimeout: .seconds(configuration.requestTimeout),
                maxConcurrentRequests: configuration.concurrency,
                userAgent: "connect-recon/\(VersionInfo.tool)"))
        defer { transport.shutdown() }
        let budget = RequestBudget(
            globalRate: configuration.effectiveRateLimit(liveMode: key.mode == .live),
            endpointRate: configuration.endpointRateLimit)
        let client = StripeClient(
            configuration: StripeClientConfiguration(
                baseURL: configuration.apiBaseURL, key: key, stripeVersion: configuration.stripeVersion,
                retryPolicy: RetryPolicy(maxRetries: configuration.maxRetries)),
            transport: transport, budget: budget, logger: logger)
        let progress: any ExtractionProgress =
            context.console.isInteractive
            ? TerminalProgress(console: context.console, clock: clock, began: began)
            : LogProgress(logger: logger)
        let extractor = Extractor(
            client: client, store: store,
            options: Extractor.Options(concurrency: configuration.concurrency, settleMargin: Int64(configuration.settleMargin)),
            logger: logger, progress: progress)
        let (from, to) = preparation.range.unixSeconds
        let summary = try await extractor.extract(
            from: from, to: to, runID: runID, now: Int64(context.now().timeIntervalSince1970))
        (progress as? TerminalProgress)?.finish()
        return Outcome(summary: summary, statistics: await client.stats, seconds: RunRecorder.seconds(clock.now - began))
    }

    /// The details of an extraction for the run record.
    static func details(_ outcome: Outcome) -> [String: any Sendable] {
        let summary = outcome.summary
        let statistics = outcome.statistics
        return [
            "objects": summary.objectsByResource, "new": summary.new, "updated": summary.updated,
            "unchanged": summary.unchanged, "pages": summary.pages, "follow_ups": summary.followUps,
            "missing": summary.missing, "requests": statistics.requests, "retries": statistics.retries,
            "rate_limited": statistics.rateLimited, "extract_seconds": (outcome.seconds * 1000).rounded() / 1000,
        ]
    }

    /// The summary lines printed when extraction ends.
    static func report(_ outcome: Outcome, runID: Int64) -> String {
        let summary = outcome.summary
        let stats = outcome.statistics
        var lines = [
            "Extracted \(summary.objects) objects in \(String(format: "%.1f", outcome.seconds)) s (run \(runID)):"
        ]
        for (resource, count) in summary.objectsByResource.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(resource.padding(toLength: 22, withPad: " ", startingAt: 0)) \(count)")
        }
        lines.append(
            "  stored: \(summary.new) new, \(summary.updated) changed, \(summary.unchanged) unchanged"
                + (summary.missing > 0 ? ", \(summary.missing) referenced objects not found" : ""))
        let rate = outcome.seconds > 0 ? Double(stats.requests) / outcome.seconds : 0
        lines.append(
            "  requests: \(stats.requests) (\(String(format: "%.1f", rate))/s), \(stats.retries) retries, "
                + "\(stats.rateLimited) rate-limited, \(summary.followUps) follow-ups in \(summary.followUpRounds) rounds")
        if summary.resumedWindows > 0 { lines.append("  resumed: \(summary.resumedWindows) windows already finished") }
        return lines.joined(separator: "\n") + "\n"
    }
}
