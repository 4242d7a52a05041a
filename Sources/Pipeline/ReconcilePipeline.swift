import Foundation
import History
import ReconCore
import Reconcile
import Reports
import WorkerThreads

/// History → rules → reports for one range, one part of the range in memory at a time.
///
/// The history hands out the range in parts (``HistoryStore/forEachReconciliationPart``); each part goes
/// through the rules (``ReconciliationSession``) and its `platform_fees` rows straight into the report folder.
/// Three threads share the work: one reads the parts, one applies the rules, and one writes the rows
/// (``BackgroundReportWriter``); the parts wait in a ``BlockingQueue`` of three between the first two.
/// Then the findings are marked new or open against earlier runs and the other tables are written. The
/// report is exactly ``Reconciler/reconcile(_:)`` of the whole range.
package struct ReconcilePipeline {
    package var store: HistoryStore
    package var range: ReportingRange
    /// The run's "now" (Unix seconds).
    package var asOf: Int64
    package var skippedTransferGrace: Int64
    package var outputDirectory: URL
    package var chargesPerPart = 5_000
    package var writeOptions = WriteOptions()

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
        /// Waiting for the report writer after the rules were done: the other tables, the workbook's close
        /// (its zip) and the swap.
        package var finish: Double = 0
        package var total: Double = 0
        /// The writer's own work (on its thread, overlapping the rules).
        package var writer = ReportStream.Timings()
    }

    package struct Outcome: Sendable {
        /// Every table but `platformFees`, which went straight to the files (`findings.platformFeeRows` rows).
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
        let writer = try BackgroundReportWriter(range: range, to: outputDirectory, options: writeOptions)
        phase("rules")
        let rules: RulesPass
        do {
            rules = try await OwnThread.run(name: "connect-recon.rules") { [self] in try applyRules(writer: writer) }
        } catch {
            await writer.abandon()
            throw error
        }
        timings.rules = rules.rulesTime.inSeconds
        timings.read = (clock.now - began).inSeconds - timings.rules

        // Mark findings new or open against earlier runs; find the ones that are gone.
        phase("findings")
        let findingsStarted = clock.now
        var report = rules.session.report()
        let keys = Self.findingKeys(report)
        let update: FindingsUpdate
        do {
            update = try await store.recordFindings(
                keys, run: runID, from: range.unixSeconds.from, to: range.unixSeconds.to)
        } catch {
            await writer.abandon()
            throw error
        }
        let openCount = Self.markOpen(&report, open: update.open)
        report.findingCounts = FindingCounts.rows(of: report, resolvedKinds: update.resolved.map(\.key.kind))
        timings.findings = (clock.now - findingsStarted).inSeconds

        let findings = Findings(
            report: report, platformFeeRows: rules.platformFeeRows, newFindings: keys.count - openCount,
            openFindings: openCount, resolved: update.resolved, objectsRead: rules.objectsRead, parts: rules.parts)
        phase("reports")
        let finishStarted = clock.now
        let (files, writerTimings) = try await writer.finish(report, metadata: metadata(findings))
        timings.finish = (clock.now - finishStarted).inSeconds
        timings.writer = writerTimings
        timings.total = (clock.now - began).inSeconds
        return Outcome(findings: findings, files: files, timings: timings)
    }

    /// What applying the rules to every part left: the session (for the report's other tables) and counts.
    private struct RulesPass: @unchecked Sendable {
        var session: ReconciliationSession
        var platformFeeRows = 0
        var objectsRead = 0
        var parts = 0
        var rulesTime = Duration.zero
    }

    /// Reads the parts on one thread while this one applies the rules to them, handing each part's
    /// `platform_fees` rows to `writer`. Blocks: call it on a thread of its own.
    private func applyRules(writer: BackgroundReportWriter) throws -> RulesPass {
        let clock = ContinuousClock()
        // The Summary's per-day series counts the days of the configured time zone.
        var pass = RulesPass(
            session: ReconciliationSession(
                asOf: asOf, skippedTransferGrace: skippedTransferGrace, days: ReportingDays(range)))
        let parts = BlockingQueue<ReconciliationInput>(capacity: 3)
        let (store, from, to, asOf, grace, size) = (
            store, range.unixSeconds.from, range.unixSeconds.to, asOf, skippedTransferGrace, chargesPerPart
        )
        OwnThread.start(name: "connect-recon.history-reader") {
            do {
                try store.forEachReconciliationPart(
                    from: from, to: to, asOf: asOf, skippedTransferGrace: grace, chargesPerPart: size
                ) { part in try parts.push(part) }
                parts.finish()
            } catch {
                parts.finish(throwing: error)
            }
        }
        do {
            while let part = try parts.pop() {
                let started = clock.now
                pass.session.add(part)
                let rows = pass.session.takePlatformFees()
                pass.rulesTime += clock.now - started
                pass.objectsRead += part.objectCount
                pass.parts += 1
                pass.platformFeeRows += rows.count
                if !rows.isEmpty { try writer.append(rows) }
            }
        } catch {
            // Stop the reader and wait until its read transaction is closed.
            parts.close()
            parts.waitUntilFinished()
            throw error
        }
        return pass
    }
}
