import Foundation
import Pipeline

extension Configuration {
    /// The settings a run of the pipeline reads from this configuration.
    var runSettings: RunSettings {
        var settings = RunSettings(
            history: history, lockWait: .seconds(lockWait), toolVersion: VersionInfo.tool,
            stripeVersion: stripeVersion, apiBaseURL: apiBaseURL,
            outputDirectory: URL(fileURLWithPath: outputDirectory, isDirectory: true),
            skippedTransferGrace: Int64(skippedTransferGrace), lookbackSeconds: Int64(lookbackDays) * 86_400,
            reportParameters: [
                ("time zone", timeZoneName),
                ("skipped-transfer grace (s)", String(Int(skippedTransferGrace))),
                ("look-back for late outcomes (days)", String(lookbackDays)),
                ("compare with Stripe's reports", compareWithStripeReports ? "yes" : "no"),
                ("account debits linked by metadata", debitLinkKeys.joined(separator: ", ")),
                ("configuration file", filePath ?? "none"),
            ])
        settings.compareWithStripeReports = compareWithStripeReports
        settings.stripeReportWait = .seconds(stripeReportWait)
        settings.debitLinkKeys = debitLinkKeys
        return settings
    }

    /// How extraction talks to Stripe with a key of live mode (`liveMode`) or test mode.
    func extractionSettings(liveMode: Bool) -> ExtractionSettings {
        ExtractionSettings(
            connectTimeout: .seconds(connectTimeout), requestTimeout: .seconds(requestTimeout),
            concurrency: concurrency, globalRate: effectiveRateLimit(liveMode: liveMode),
            endpointRate: endpointRateLimit, maxRetries: maxRetries, settleMargin: Int64(settleMargin))
    }
}
