import Foundation
import Logging
import ReconCore
import StripeAPI

/// Everything a range command checks before it touches the network or the disk: configuration, range and
/// (for commands that call Stripe) the key. Any mistake is an ``ActionableError`` with `isBadInput`: exit 2.
struct RunPreparation: Sendable {
    let configuration: Configuration
    let range: ReportingRange
    /// `nil` for commands that never call the API (`reconcile`).
    let key: APIKey?
    let logger: Logger

    /// Checks the options of `command`. `needsKey` is true for commands that call Stripe.
    static func prepare(
        _ options: RangeOptions, needsKey: Bool, context: CommandContext = .current
    ) throws -> RunPreparation {
        let loader = ConfigurationLoader(environment: context.environment, flags: options.settingFlags)
        let configuration = try loader.load(explicitFile: options.common.config)
        let logger = PlainLogHandler.logger(level: configuration.logLevel, context: context)
        let resolver = RangeResolver(
            timeZone: configuration.timeZone, maximumDays: configuration.maxRangeDays, now: context.now())
        let range = try resolver.resolve(from: options.from, to: options.to)
        var key: APIKey?
        if needsKey {
            let credential = try CredentialResolver(environment: context.environment)
                .resolve(keyFile: configuration.keyFile)
            if let warning = credential.warning { logger.warning("\(warning)") }
            key = credential.key
        }
        return RunPreparation(configuration: configuration, range: range, key: key, logger: logger)
    }

    /// One line for the log: what will run against what.
    var summary: String {
        var parts = ["range \(range)", "time zone \(configuration.timeZoneName)"]
        if let key { parts.append("\(key.mode.rawValue) mode (\(key))") }
        parts.append("API \(configuration.apiBaseURL.absoluteString)")
        parts.append("Stripe-Version \(configuration.stripeVersion)")
        return parts.joined(separator: ", ")
    }
}
