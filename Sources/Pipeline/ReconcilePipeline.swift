import Foundation
import History
import ReconCore
import Reconcile
import Reports
import WorkerThreads

/// History → rules → reports for one range, one part of the range in memory at a time.
///
/// The history hands out the range in parts
/// (``HistoryParts/forEach(from:to:asOf:skippedTransferGrace:chargesPerPart:late:_:)``); each part goes through the
/// rules (``ReconciliationSession``) and its `platform_fees` and `payout_transactions` rows straight into the report
/// folder. Three stages share the work, each on a thread of its own (``OwnThread``, awaited by
/// ``run(runID:metadata:phase:)``: structured, no thread outlives the run): one reads the parts, one applies the rules,
/// and one writes the rows (``ReportWriterStage``). The parts wait in a ``BlockingQueue`` of ``partsQueued`` between
/// the first two, the rows in one of ``ReportWriterStage/maxQueued`` between the last two.
/// Then the findings are marked new or open against earlier runs and the other tables are written. The
/// report is exactly ``Reconciler/reconcile(_:)`` of the whole range.
package struct ReconcilePipeline {
    package var store: HistoryStore
    package var range: ReportingRange
    /// The run's "now" (Unix seconds).
    package var asOf: Int64
    package var skippedTransferGrace: Int64
    /// The look-back window's length in seconds (docs/EXTRACTION.md, "Late outcomes"); 0: no late outcomes, no pending
    /// charges.
    package var lookbackSeconds: Int64 = 0
    /// The metadata keys whose values name what an account debit recovers (`reconcile.debit_link_keys`).
    package var debitLinkKeys = ChargeFacts.defaultDebitLinkKeys
    package var outputDirectory: URL
    /// How many charges a part holds; `nil`: the history's own choice (``HistoryParts/chargesPerPart``).
    package var chargesPerPart: Int?
    package var writeOptions = WriteOptions()

    /// How many parts the reader may read ahead of the rules. The range's phases load the stages unevenly: reading
    /// the charges' parts takes longer than judging and writing them, while the payouts' parts are read quickly and
    /// bring the writer most of its rows (as many payout transactions as charges, and more). Deep queues let one
    /// phase overlap the other instead of each stage waiting in turn: about 7 % less wall time at 150,000 charges and
    /// 5 % at a million, for 30–55 MiB more (docs/BENCHMARKS.md, "Queues a phase deep"). Memory stays bounded by the
    /// part, times this. 12 since two readers read the charges' parts faster than they are judged: 32 parts ahead of
    /// rules held back by the other threads took one run at 150,000 charges to 254 MiB; with 8, the reconcile from
    /// PostgreSQL was 1.46–1.55× SQLite's; with 12, 1.40× at 190 MiB (docs/BENCHMARKS.md, "Fewer copies").
    static let partsQueued = 12

    package init(
        store: HistoryStore, range: ReportingRange, asOf: Int64, skippedTransferGrace: Int64, outputDirectory: URL
    ) {
        self.store = store
        self.range = range
        self.asOf = asOf
        self.skippedTransferGrace = skippedTransferGrace
        self.outputDirectory = outputDirectory
    }

    /// What the rules found, before the reports are finished: for the Run sheet's counts.
    package struct Findings: Sendable {
        package var report: ReconciliationReport
        package var platformFeeRows: Int
        package var newFindings: Int
        package var openFindings: Int
        package var resolved: [ResolvedFinding]
        /// How many late outcomes the rules judged.
        package var lateOutcomes: Int
        /// Earlier ranges whose reports a late outcome put out of date.
        package var outOfDateRanges: [OutOfDateRange]
        package var objectsRead: Int
        package var parts: Int
    }

    /// Seconds spent in each step.
    package struct Timings: Sendable {
        /// Waiting for parts from the history's reader thread (reading overlaps the rules; this is what it
        /// did not hide).
        package var read: Double = 0
        /// Applying the rules to the parts (on the rules' thread).
        package var rules: Double = 0
        /// Recording the findings in the history.
        package var findings: Double = 0
        /// Waiting for the report writer after the findings were recorded: the rows it had not written yet, the
        /// other tables, the workbook's close (its zip) and the swap.
        package var finish: Double = 0
        package var total: Double = 0
        /// The writer's own work (on its thread, overlapping the rules).
        package var writer = ReportStream.Timings()
    }

    package struct Outcome: Sendable {
        /// Every table but `platformFees` (`findings.platformFeeRows` rows) and `payoutTransactions`, which went
        /// straight to the files.
        package var findings: Findings
        package var files: ReportFiles
        package var timings: Timings
    }

    /// Runs the pipeline for run `runID`. `metadata` makes the Run sheet's metadata from what was found.
    ///
    /// The blocking work (reading parts, applying the rules, waiting for the writer) runs on threads of its own;
    /// the caller's task only awaits it.
    package func run(
        runID: Int64, metadata: (Findings) -> ReportMetadata, phase: (String) -> Void = { _ in }
    ) async throws -> Outcome {
        let clock = ContinuousClock()
        let began = clock.now
        var timings = Timings()
        // The hidden report folder is created here, so a bad output folder fails before any work.
        let stream = try ReportStream(range: range, to: outputDirectory, options: writeOptions)
        let writer = ReportWriterStage()
        async let written = writer.write(stream)
        let findings: Findings
        var finishStarted = clock.now
        do {
            let late = try await lateOutcomeSelection(runID: runID)
            phase("rules")
            let rules = try await applyRules(writer: writer, late: late, runID: runID)
            timings.rules = rules.rulesTime.inSeconds
            timings.read = (clock.now - began).inSeconds - timings.rules

            // Mark findings new or open against earlier runs; find the ones that are gone.
            phase("findings")
            let findingsStarted = clock.now
            var report = rules.session.report()
            let current = Self.findings(report)
            // Before the findings mark the late outcomes judged: the reports made before their change.
            var outOfDate: [OutOfDateRange] = []
            if let late { outOfDate = try await store.runs.outOfDateRanges(late, run: runID) }
            // An earlier range whose Stripe report, compared late, differs from its roll-forward.
            for stale in report.staleReportRanges {
                let range = OutOfDateRange(from: stale.from, to: stale.to, timeZone: range.timeZone.identifier)
                if !outOfDate.contains(range) { outOfDate.append(range) }
            }
            let update = try await store.runs.recordFindings(
                current, run: runID, from: range.unixSeconds.from, to: range.unixSeconds.to, late: late)
            let openCount = Self.markOpen(&report, open: update.open)
            report.findingCounts = FindingCounts.rows(of: report, resolvedKinds: update.resolved.map(\.key.kind))
            timings.findings = (clock.now - findingsStarted).inSeconds
            findings = Findings(
                report: report, platformFeeRows: rules.platformFeeRows, newFindings: current.count - openCount,
                openFindings: openCount, resolved: update.resolved, lateOutcomes: rules.lateOutcomes,
                outOfDateRanges: outOfDate, objectsRead: rules.objectsRead, parts: rules.parts)
            phase("reports")
            finishStarted = clock.now
            try await writer.finish(report, metadata: metadata(findings))
            _ = await written
            timings.finish = (clock.now - finishStarted).inSeconds
        } catch {
            // The writer removes its hidden folder before it ends; its own failure, if it failed first, is the cause.
            writer.abandon()
            if case .failure(let writeError) = await written { throw writeError }
            throw error
        }
        guard case .success(let outcome?) = await written else {
            if case .failure(let writeError) = await written { throw writeError }
            throw ReportError.fileSystem(
                operation: "write the report", path: outputDirectory.path,
                reason: "the report writer stopped early")
        }
        timings.writer = outcome.timings
        timings.total = (clock.now - began).inSeconds
        return Outcome(findings: findings, files: outcome.files, timings: timings)
    }

    /// The late outcomes this run judges (see ``LateOutcomeSelection``), `nil` when the look-back is off.
    private func lateOutcomeSelection(runID: Int64) async throws -> LateOutcomeSelection? {
        guard lookbackSeconds > 0 else { return nil }
        let (from, to) = range.unixSeconds
        return LateOutcomeSelection(
            window: (from - lookbackSeconds)..<from,
            source: try await store.runs.lateOutcomeSource(from: from, to: to, run: runID))
    }

    /// What applying the rules to every part left: the session (for the report's other tables) and counts.
    private struct RulesPass: Sendable {
        var session: ReconciliationSession
        var platformFeeRows = 0
        var lateOutcomes = 0
        var objectsRead = 0
        var parts = 0
        var rulesTime = Duration.zero
    }

    /// Reads the parts on one thread while another applies the rules to them, handing each part's `platform_fees`
    /// and `payout_transactions` rows to `writer`; returns when both threads are done.
    private func applyRules(
        writer: ReportWriterStage, late: LateOutcomeSelection?, runID: Int64
    ) async throws -> RulesPass {
        let parts = BlockingQueue<ReconciliationInput>(capacity: Self.partsQueued)
        let (store, from, to, asOf, grace, size, rangeName, timeZone) = (
            store, range.unixSeconds.from, range.unixSeconds.to, asOf, skippedTransferGrace, chargesPerPart,
            range.folderName, range.timeZone
        )
        // The reader's error ends the queue, so the rules throw it.
        async let reading = Self.fill(parts, thread: "connect-recon.history-reader") { push in
            try store.parts.forEach(
                from: from, to: to, asOf: asOf, skippedTransferGrace: grace, chargesPerPart: size, late: late,
                run: runID
            ) { part in
                var part = part
                // The balance's findings name the range as its report folder is named, and so an earlier range's.
                part.balance?.rangeName = rangeName
                for index in part.lateBalanceComparisons.indices {
                    let late = part.lateBalanceComparisons[index]
                    part.lateBalanceComparisons[index].inputs.rangeName =
                        (try? ReportingRange(
                            from: Date(timeIntervalSince1970: TimeInterval(late.from)),
                            to: Date(timeIntervalSince1970: TimeInterval(late.to)), timeZone: timeZone))?.folderName
                        ?? "\(late.from)_\(late.to)"
                }
                try push(part)
            }
        }
        // The Summary's per-day series counts the days of the configured time zone.
        let session = ReconciliationSession(
            asOf: asOf, skippedTransferGrace: skippedTransferGrace, days: ReportingDays(range),
            debitLinkKeys: debitLinkKeys)
        do {
            let pass = try await OwnThread.run(name: "connect-recon.rules") {
                try Self.judge(parts, session: session, writer: writer)
            }
            _ = await reading
            return pass
        } catch {
            // Stop the reader; its read transaction is closed when it returns.
            parts.close()
            _ = await reading
            throw error
        }
    }

    /// Runs `produce` on a thread of its own, pushing what it makes into `queue`, then ends the queue: with nothing
    /// when `produce` is done, with its error otherwise (returned too). A push refused because the consumer closed
    /// the queue ends it quietly: the consumer's own error is the run's.
    private static func fill<Element: Sendable>(
        _ queue: BlockingQueue<Element>, thread name: String,
        _ produce: @escaping @Sendable (_ push: (Element) throws -> Void) throws -> Void
    ) async -> (any Error)? {
        await OwnThread.run(name: name) { () -> (any Error)? in
            do {
                try produce { try queue.push($0) }
                queue.finish()
                return nil
            } catch is BlockingQueue<Element>.Closed {
                return nil
            } catch {
                queue.finish(throwing: error)
                return error
            }
        }
    }

    /// Applies the rules to each part as it comes, handing its `platform_fees` and `payout_transactions` rows to the
    /// writer (the parts judge the charges before the payouts, so every platform fee comes first). Blocks: runs on
    /// a thread of its own.
    private static func judge(
        _ parts: BlockingQueue<ReconciliationInput>, session: ReconciliationSession, writer: ReportWriterStage
    ) throws -> RulesPass {
        let clock = ContinuousClock()
        var pass = RulesPass(session: session)
        while let part = try parts.pop() {
            let started = clock.now
            pass.session.add(part)
            let fees = pass.session.takePlatformFees()
            let transactions = pass.session.takePayoutTransactions()
            pass.rulesTime += clock.now - started
            pass.objectsRead += part.objectCount
            pass.lateOutcomes += part.lateOutcomeCount
            pass.parts += 1
            pass.platformFeeRows += fees.count
            if !fees.isEmpty { try writer.append(platformFees: fees) }
            if !transactions.isEmpty { try writer.append(payoutTransactions: transactions) }
        }
        return pass
    }
}
