import ArgumentParser
import Foundation
import History
import Logging
import Pipeline
import ReconCore

/// `connect-recon reconcile`: recompute and write reports from the history database alone.
struct ReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Recompute a range's reports from the history database alone, without calling Stripe.",
        discussion:
            "Needs no API key: it reads only what an earlier run or extract stored. \(RunOutput.reportFilesHelp)")

    @OptionGroup var options: RangeOptions

    @Flag(help: "Exit with status 3 when there are new skipped transfers, unreversed disputes or exceptions.")
    var failOnFindings = false

    func run() async throws {
        let preparation = try RunPreparation.prepare(options)
        let history = preparation.configuration.history
        guard try HistoryStore.exists(history) else {
            throw UsageProblem(
                "There is no history database at '\(history)'. Run `connect-recon run` or "
                    + "`connect-recon extract` for the range first, or point --db at the right file or database.")
        }
        let mode = try HistoryInspection.storedMode(history)
        let range = preparation.range
        let outcome = try await preparation.recorded("reconcile", mode: mode, resume: false) { recorder in
            let (from, to) = range.unixSeconds
            guard try recorder.store.runs.hasCompletedExtraction(from: from, to: to) else {
                throw UsageProblem(
                    "The history holds no completed extraction covering \(range). Run `connect-recon run` "
                        + "(or `extract`) for that range first; reconcile reads only what was fetched.")
            }
            preparation.logger.info("reconcile: \(preparation.summary())")
            let outcome = try await preparation.reconcile(mode: mode).run(recorder: recorder, command: "reconcile")
            return (outcome, ReconcileJob.details(outcome))
        }
        preparation.context.console.writeOutput(RunOutput.reconciliation(outcome))
        if failOnFindings && outcome.newFindings > 0 { throw CompletedWithStatus(status: .newFindings) }
    }
}
