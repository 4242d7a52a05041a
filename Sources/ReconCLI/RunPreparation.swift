import Foundation
import Logging
import Pipeline
import ReconCore
import StripeAPI

/// Everything a range command checks before it touches the network or the disk: configuration and range. Any
/// mistake is an ``ActionableError`` with `isBadInput`: exit 2.
struct RunPreparation: Sendable {
    let configuration: Configuration
    let range: ReportingRange
    let logger: Logger
    let context: CommandContext

    /// Checks the options of a range command.
    static func prepare(_ options: RangeOptions, context: CommandContext = .current) throws -> RunPreparation {
        let loader = ConfigurationLoader(environment: context.environment, flags: options.settingFlags)
        let configuration = try loader.load(explicitFile: options.common.config)
        let logger = PlainLogHandler.logger(level: configuration.logLevel, context: context)
        let resolver = RangeResolver(
            timeZone: configuration.timeZone, maximumDays: configuration.maxRangeDays, now: context.now())
        let range = try resolver.resolve(from: options.from, to: options.to)
        return RunPreparation(configuration: configuration, range: range, logger: logger, context: context)
    }

    /// The API key, for commands that call Stripe: from `STRIPE_API_KEY` or the configured key file.
    func resolveKey() throws -> APIKey {
        let credential = try CredentialResolver(environment: context.environment)
            .resolve(keyFile: configuration.keyFile)
        if let warning = credential.warning { logger.warning("\(warning)") }
        return credential.key
    }

    /// One line for the log: what will run against what (`key` for commands that call Stripe).
    func summary(key: APIKey? = nil) -> String {
        var parts = ["range \(range)", "time zone \(configuration.timeZoneName)"]
        if let key { parts.append("\(key.mode.rawValue) mode (\(key))") }
        parts.append("API \(configuration.apiBaseURL.absoluteString)")
        parts.append("Stripe-Version \(configuration.stripeVersion)")
        return parts.joined(separator: ", ")
    }

    /// Records a run of `command` in the history around `body`: begins it (taking the history's lock), runs `body`,
    /// and records it as completed with the details `body` returns, or as failed with the error `body` threw.
    func recorded<Result>(
        _ command: String, mode: StripeMode, resume: Bool,
        _ body: (RunRecorder) async throws -> (result: Result, details: [String: any Sendable])
    ) async throws -> Result {
        let recorder = try await RunRecorder.begin(
            command: command, range: range, mode: mode, settings: configuration.runSettings, now: context.now,
            resume: resume)
        return try await recorder.recordingFailure {
            let (result, details) = try await body(recorder)
            try await recorder.complete(details: details)
            return result
        }
    }

    /// Extracts the range with `key` into `recorder`'s history, showing progress live on a terminal and in the log
    /// otherwise.
    func extract(key: APIKey, recorder: RunRecorder) async throws -> ExtractionJob.Outcome {
        let terminal = context.console.isInteractive ? TerminalProgress(console: context.console) : nil
        let job = ExtractionJob(
            range: range, key: key, run: configuration.runSettings,
            settings: configuration.extractionSettings(liveMode: key.mode == .live), logger: logger,
            progress: terminal ?? LogProgress(logger: logger))
        defer { terminal?.finish() }
        return try await job.run(recorder: recorder)
    }

    /// The reconcile of the range from the history, for objects fetched in `mode`.
    func reconcile(mode: StripeMode) -> ReconcileJob {
        ReconcileJob(range: range, settings: configuration.runSettings, mode: mode, logger: logger)
    }
}
