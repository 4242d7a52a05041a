import CurlTransport
import Extract
import Foundation
import History
import Logging
import ReconCore
import StripeAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Runs an extraction for a checked ``RunPreparation``: takes the database's lock, records the run, pages
/// Stripe into the history and records how it ended. Shared by `extract` and `run`.
struct ExtractionJob {
    let preparation: RunPreparation
    let command: String
    let context: CommandContext

    /// What the job did, for the command's output.
    struct Outcome {
        let runID: Int64
        let summary: ExtractionSummary
        let statistics: ClientStatistics
        let seconds: Double
    }

    /// Extracts the range; on failure marks the run failed in the history and rethrows.
    func run(lock: HistoryLock, store: HistoryStore) async throws -> Outcome {
        let configuration = preparation.configuration
        guard let key = preparation.key else { preconditionFailure("extraction needs a key") }
        let logger = preparation.logger
        try store.claimMode(key.mode.rawValue)
        let now = context.now()
        let start = RunStart(
            command: command, range: preparation.range, mode: key.mode.rawValue, toolVersion: VersionInfo.tool,
            stripeVersion: configuration.stripeVersion, apiBase: configuration.apiBaseURL.absoluteString,
            startedAt: Int64(now.timeIntervalSince1970), pid: getpid())
        let (runID, resumed) = try store.beginRun(start)
        if let resumed {
            logger.notice("resuming the interrupted run \(resumed): its finished windows are not fetched again")
        }
        let clock = ContinuousClock()
        let began = clock.now
        do {
            let transport = try CurlHTTPTransport(
                configuration: CurlTransportConfiguration(
                    connectTimeout: .seconds(configuration.connectTimeout),
                    requestTimeout: .seconds(configuration.requestTimeout),
                    maxConcurrentRequests: configuration.concurrency,
                    userAgent: "connect-recon/\(VersionInfo.tool)"))
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
                options: Extractor.Options(
                    concurrency: configuration.concurrency, settleMargin: Int64(configuration.settleMargin)),
                logger: logger, progress: progress)
            let (from, to) = preparation.range.unixSeconds
            let summary = try await extractor.extract(
                from: from, to: to, runID: runID, now: Int64(context.now().timeIntervalSince1970))
            (progress as? TerminalProgress)?.finish()
            let statistics = await client.stats
            let seconds = Self.seconds(clock.now - began)
            try store.finishRun(
                runID, status: .completed, finishedAt: Int64(context.now().timeIntervalSince1970), message: nil,
                details: Self.details(summary, statistics, seconds))
            return Outcome(runID: runID, summary: summary, statistics: statistics, seconds: seconds)
        } catch {
            let message = (error as? any ActionableError)?.message ?? "\(error)"
            try? store.finishRun(
                runID, status: .failed, finishedAt: Int64(context.now().timeIntervalSince1970), message: message,
                details: nil)
            throw error
        }
    }

    /// The lock and the store for the configured database, or the errors that say why not.
    static func openHistory(_ configuration: Configuration, holder: String) async throws -> (HistoryLock, HistoryStore) {
        let lock = try await HistoryLock.acquire(
            databasePath: configuration.databasePath, wait: .seconds(configuration.lockWait), holder: holder)
        let store = try HistoryStore.open(path: configuration.databasePath)
        return (lock, store)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The run's details as JSON for the `runs` table.
    static func details(_ summary: ExtractionSummary, _ statistics: ClientStatistics, _ seconds: Double) -> String {
        let object: [String: Any] = [
            "objects": summary.objectsByResource, "new": summary.new, "updated": summary.updated,
            "unchanged": summary.unchanged, "pages": summary.pages, "follow_ups": summary.followUps,
            "missing": summary.missing, "requests": statistics.requests, "retries": statistics.retries,
            "rate_limited": statistics.rateLimited, "seconds": (seconds * 1000).rounded() / 1000,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The summary lines printed when extraction ends.
    static func report(_ outcome: Outcome) -> String {
        let summary = outcome.summary
        let stats = outcome.statistics
        var lines = ["Extracted \(summary.objects) objects in \(String(format: "%.1f", outcome.seconds)) s (run \(outcome.runID)):"]
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
