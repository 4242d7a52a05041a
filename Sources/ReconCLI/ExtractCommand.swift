import ArgumentParser
import Logging
import Pipeline
import StripeAPI

/// `connect-recon extract`: fetch a range into the history database only.
struct ExtractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Fetch a date range from Stripe into the history database, without writing reports.")

    @OptionGroup var options: RangeOptions

    func run() async throws {
        let preparation = try RunPreparation.prepare(options)
        let key = try preparation.resolveKey()
        preparation.logger.info("extract: \(preparation.summary(key: key))")
        let (outcome, runID) = try await preparation.recorded("extract", mode: key.mode, resume: true) {
            recorder in
            if let resumed = recorder.resumedFrom {
                preparation.logger.notice(
                    "resuming the interrupted run \(resumed): its finished windows are not fetched again")
            }
            let outcome = try await preparation.extract(key: key, recorder: recorder)
            return ((outcome, recorder.runID), ExtractionJob.details(outcome))
        }
        preparation.context.console.writeOutput(RunOutput.extraction(outcome, runID: runID))
    }
}
