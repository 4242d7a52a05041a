import ReconCore
import Logging
import ArgumentParser

/// `connect-recon run`: extract, reconcile and write the reports for a range.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Fetch a date range from Stripe, reconcile it and write the reports (the nightly job).",
        discussion: """
            Without --from/--to: the previous whole day in the configured time zone, which is what cron wants. \
            Reports go to <out>/<from>_<to>/ (CSV files and reconciliation_<from>_<to>.xlsx); re-running a range \
            replaces its reports and updates the history, never duplicating anything.
            """)

    @OptionGroup var options: RangeOptions

    @Flag(help: "Exit with status 3 when the run found new skipped transfers, unreversed disputes or exceptions.")
    var failOnFindings = false

    func run() async throws {
        let preparation = try RunPreparation.prepare(options, needsKey: true)
        preparation.logger.info("run checked: \(preparation.summary)")
        throw NotYetAvailable(command: "run", missing: "the extractor and the reconciler are not built yet")
    }
}

/// `connect-recon extract`: fetch a range into the history database only.
struct ExtractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Fetch a date range from Stripe into the history database, without writing reports.")

    @OptionGroup var options: RangeOptions

    func run() async throws {
        let context = CommandContext.current
        let preparation = try RunPreparation.prepare(options, needsKey: true)
        preparation.logger.info("extract: \(preparation.summary)")
        let (lock, store) = try await ExtractionJob.openHistory(
            preparation.configuration, holder: "extract \(preparation.range.folderName)")
        let outcome = try await ExtractionJob(preparation: preparation, command: "extract", context: context)
            .run(lock: lock, store: store)
        context.console.writeOutput(ExtractionJob.report(outcome))
    }
}

/// `connect-recon reconcile`: recompute and write reports from the history database alone.
struct ReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Recompute a range's reports from the history database alone, without calling Stripe.",
        discussion: "Needs no API key: it reads only what an earlier run or extract stored.")

    @OptionGroup var options: RangeOptions

    @Flag(help: "Exit with status 3 when there are new skipped transfers, unreversed disputes or exceptions.")
    var failOnFindings = false

    func run() async throws {
        let preparation = try RunPreparation.prepare(options, needsKey: false)
        preparation.logger.info("reconcile checked: \(preparation.summary)")
        throw NotYetAvailable(command: "reconcile", missing: "the reconciler is not built yet")
    }
}
