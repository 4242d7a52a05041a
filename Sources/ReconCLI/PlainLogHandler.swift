import Foundation
import Logging
import ReconCore

/// Plain log lines on standard error, one per event, for cron mail and log files:
/// `2026-11-21T02:00:03Z info run started range=[…] mode=live`.
struct PlainLogHandler: LogHandler {
    let label: String
    let console: any Console
    let now: @Sendable () -> Date
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        let rendered = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        console.writeError("\(RFC3339.utcString(now())) \(event.level) \(event.message)\(rendered)\n")
    }

    /// A logger for one command run, honouring the configured level.
    static func logger(level: String, context: CommandContext) -> Logger {
        Logger(label: "connect-recon") { label in
            PlainLogHandler(
                label: label, console: context.console, now: context.now,
                logLevel: Logger.Level(rawValue: level) ?? .info)
        }
    }
}
