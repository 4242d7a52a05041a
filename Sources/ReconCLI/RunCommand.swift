import ArgumentParser
import Extract
import Logging
import Pipeline
import StripeAPI

/// `connect-recon run`: extract, reconcile and write the reports for a range.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Fetch a date range from Stripe, reconcile it and write the reports (the nightly job).",
        discussion: """
            Without --from/--to: the previous whole day in the configured time zone, which is what cron wants. \
            \(RunOutput.reportFilesHelp) Re-running a range replaces its reports and updates the history, never \
            duplicating anything.
            """)

    @OptionGroup var options: RangeOptions

    @Flag(help: "Exit with status 3 when the run found new skipped transfers, unreversed disputes or exceptions.")
    var failOnFindings = false

    func run() async throws {
        let preparation = try RunPreparation.prepare(options)
        let key = try preparation.resolveKey()
        let console = preparation.context.console
        preparation.logger.info("run: \(preparation.summary(key: key))")
        let reconciliation = try await preparation.recorded("run", mode: key.mode, resume: true) {
            recorder in
            let extraction = try await preparation.extract(key: key, recorder: recorder)
            console.writeOutput(RunOutput.extraction(extraction, runID: recorder.runID))
            let reconciliation = try await preparation.reconcile(mode: key.mode).run(
                recorder: recorder, command: "run", extraCounts: extraction.summary.objectsByResource)
            let details = ExtractionJob.details(extraction).merging(ReconcileJob.details(reconciliation)) { $1 }
            return (reconciliation, details)
        }
        console.writeOutput(RunOutput.reconciliation(reconciliation))
        if failOnFindings && reconciliation.newFindings > 0 { throw CompletedWithStatus(status: .newFindings) }
    }
}
