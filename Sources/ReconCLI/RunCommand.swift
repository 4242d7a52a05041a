import ArgumentParser
import Foundation
import Logging
import Extract
import History
import ReconCore
import StripeAPI

/// The report files, as `run` and `reconcile` describe them in `--help`.
let reportFilesHelp = """
    Reports go to <out>/<from>_<to>/: platform_fees.csv, skipped_transfers.csv, unreversed_disputes.csv, \
    exceptions.csv, ledger.csv, summary.csv, connected_accounts.csv, payouts.csv, payout_transactions.csv and \
    reconciliation_<from>_<to>.xlsx (it opens on its Summary sheet).
    """

/// `connect-recon run`: extract, reconcile and write the reports for a range.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Fetch a date range from Stripe, reconcile it and write the reports (the nightly job).",
        discussion: """
            Without --from/--to: the previous whole day in the configured time zone, which is what cron wants. \
            \(reportFilesHelp) Re-running a range replaces its reports and updates the history, never duplicating \
            anything.
            """)

    @OptionGroup var options: RangeOptions

    @Flag(help: "Exit with status 3 when the run found new skipped transfers, unreversed disputes or exceptions.")
    var failOnFindings = false

    func run() async throws {
        let context = CommandContext.current
        let preparation = try RunPreparation.prepare(options, needsKey: true)
        guard let key = preparation.key else { return }
        preparation.logger.info("run: \(preparation.summary)")
        let recorder = try await RunRecorder.begin(
            command: "run", range: preparation.range, mode: key.mode.rawValue,
            configuration: preparation.configuration, context: context, resume: true)
        let (extraction, reconciliation) = try await recorder.recordingFailure {
            let extraction = try await ExtractionJob(preparation: preparation, context: context)
                .run(store: recorder.store, runID: recorder.runID)
            context.console.writeOutput(ExtractionJob.report(extraction, runID: recorder.runID))
            let reconciliation = try await ReconcileJob(
                range: preparation.range, configuration: preparation.configuration, mode: key.mode.rawValue,
                context: context, logger: preparation.logger
            ).run(recorder: recorder, command: "run", extraCounts: extraction.summary.objectsByResource)
            var details = ExtractionJob.details(extraction)
            details.merge(ReconcileJob.details(reconciliation)) { $1 }
            try recorder.complete(details: details)
            return (extraction, reconciliation)
        }
        _ = extraction
        context.console.writeOutput(ReconcileJob.report(reconciliation))
        if failOnFindings && reconciliation.newFindings > 0 { throw CompletedWithStatus(status: .newFindings) }
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
        guard let key = preparation.key else { return }
        preparation.logger.info("extract: \(preparation.summary)")
        let recorder = try await RunRecorder.begin(
            command: "extract", range: preparation.range, mode: key.mode.rawValue,
            configuration: preparation.configuration, context: context, resume: true)
        if let resumed = recorder.resumedFrom {
            preparation.logger.notice("resuming the interrupted run \(resumed): its finished windows are not fetched again")
        }
        let outcome = try await recorder.recordingFailure {
            let outcome = try await ExtractionJob(preparation: preparation, context: context)
                .run(store: recorder.store, runID: recorder.runID)
            try recorder.complete(details: ExtractionJob.details(outcome))
            return outcome
        }
        context.console.writeOutput(ExtractionJob.report(outcome, runID: recorder.runID))
    }
}

/// `connect-recon reconcile`: recompute and write reports from the history database alone.
struct ReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Recompute a range's reports from the history database alone, without calling Stripe.",
        discussion: "Needs no API key: it reads only what an earlier run or extract stored. \(reportFilesHelp)")

    @OptionGroup var options: RangeOptions

    @Flag(help: "Exit with status 3 when there are new skipped transfers, unreversed disputes or exceptions.")
    var failOnFindings = false

    func run() async throws {
        let context = CommandContext.current
        let preparation = try RunPreparation.prepare(options, needsKey: false)
        let configuration = preparation.configuration
        guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
            throw UsageProblem(
                "There is no history database at '\(configuration.databasePath)'. Run `connect-recon run` or "
                    + "`connect-recon extract` for the range first, or point --db at the right file.")
        }
        let mode = try HistoryInspection.storedMode(configuration.databasePath)
        let recorder = try await RunRecorder.begin(
            command: "reconcile", range: preparation.range, mode: mode, configuration: configuration,
            context: context, resume: false)
        let (from, to) = preparation.range.unixSeconds
        guard try recorder.store.hasCompletedExtraction(from: from, to: to) else {
            let problem = UsageProblem(
                "The history holds no completed extraction covering \(preparation.range). Run `connect-recon run` "
                    + "(or `extract`) for that range first; reconcile reads only what was fetched.")
            recorder.fail(problem)
            throw problem
        }
        preparation.logger.info("reconcile: \(preparation.summary)")
        let outcome = try await recorder.recordingFailure {
            let outcome = try await ReconcileJob(
                range: preparation.range, configuration: configuration, mode: mode, context: context,
                logger: preparation.logger
            ).run(recorder: recorder, command: "reconcile")
            try recorder.complete(details: ReconcileJob.details(outcome))
            return outcome
        }
        context.console.writeOutput(ReconcileJob.report(outcome))
        if failOnFindings && outcome.newFindings > 0 { throw CompletedWithStatus(status: .newFindings) }
    }
}

/// A usage mistake found after the options were parsed: exit status 2 with the message.
struct UsageProblem: ActionableError {
    let message: String
    init(_ message: String) { self.message = message }
    var isBadInput: Bool { true }
}
