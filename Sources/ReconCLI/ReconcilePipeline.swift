import Foundation
import History
import ReconCore
import Reconcile
import Reports

/// History → rules → reports for one range, one part of the range in memory at a time.
///
/// The history hands out the range in parts (``HistoryStore/forEachReconciliationPart``); each part goes
/// through the rules (``ReconciliationSession``) and its `platform_fees` rows straight into the report folder.
/// Three threads share the work: one reads the parts (``PartQueue``), the caller's applies the rules, and one
/// writes the rows (``BackgroundReportWriter``).
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
        /// The rules.
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
    package func run(
        runID: Int64, metadata: (Findings) -> ReportMetadata, phase: (String) -> Void = { _ in }
    ) async throws -> Outcome {
        let clock = ContinuousClock()
        let began = clock.now
        var timings = Timings()
        let writer = try BackgroundReportWriter(range: range, to: outputDirectory, options: writeOptions)
        // The Summary's per-day series counts the days of the configured time zone.
        var session = ReconciliationSession(
            asOf: asOf, skippedTransferGrace: skippedTransferGrace, days: ReportingDays(range))
        var platformFeeRows = 0
        var objectsRead = 0
        var parts = 0
        var rulesTime = Duration.zero
        phase("rules")
        // The parts are read on a thread of their own while this one applies the rules.
        let queue = PartQueue(capacity: 3)
        let (store, from, to, asOf, grace, size) = (
            store, range.unixSeconds.from, range.unixSeconds.to, asOf, skippedTransferGrace, chargesPerPart
        )
        let reader = Thread {
            do {
                try store.forEachReconciliationPart(
                    from: from, to: to, asOf: asOf, skippedTransferGrace: grace, chargesPerPart: size
                ) { part in try queue.push(part) }
                queue.end(nil)
            } catch {
                queue.end(error)
            }
        }
        reader.name = "connect-recon.history-reader"
        reader.start()
        do {
            while let part = try queue.pop() {
                let started = clock.now
                session.add(part)
                let rows = session.takePlatformFees()
                rulesTime += clock.now - started
                objectsRead += part.objectCount
                parts += 1
                platformFeeRows += rows.count
                if !rows.isEmpty { try writer.append(rows) }
            }
        } catch {
            queue.cancel()
            writer.abandon()
            throw error
        }
        timings.rules = Self.seconds(rulesTime)
        timings.read = Self.seconds(clock.now - began) - timings.rules

        // Mark findings new or open against earlier runs; find the ones that are gone.
        phase("findings")
        let findingsStarted = clock.now
        var report = session.report()
        let keys = Self.findingKeys(report)
        let update: FindingsUpdate
        do {
            update = try await store.recordFindings(
                keys, run: runID, from: range.unixSeconds.from, to: range.unixSeconds.to)
        } catch {
            writer.abandon()
            throw error
        }
        let openCount = Self.markOpen(&report, open: update.open)
        report.findingCounts = FindingCounts.rows(of: report, resolvedKinds: update.resolved.map(\.key.kind))
        let keyCount = keys.count
        timings.findings = Self.seconds(clock.now - findingsStarted)

        let findings = Findings(
            report: report, platformFeeRows: platformFeeRows, newFindings: keyCount - openCount,
            openFindings: openCount, resolved: update.resolved, objectsRead: objectsRead, parts: parts)
        phase("reports")
        let finishStarted = clock.now
        let (files, writerTimings) = try writer.finish(report, metadata: metadata(findings))
        timings.finish = Self.seconds(clock.now - finishStarted)
        timings.writer = writerTimings
        timings.total = Self.seconds(clock.now - began)
        return Outcome(findings: findings, files: files, timings: timings)
    }

    /// The findings of a report: skipped transfers, unreversed disputes and exceptions.
    static func findingKeys(_ report: ReconciliationReport) -> [FindingKey] {
        var keys: [FindingKey] = []
        keys += report.skippedTransfers.map { FindingKey(kind: SkippedTransferRow.findingKind, objectID: $0.chargeID) }
        keys += report.unreversedDisputes.map { FindingKey(kind: UnreversedDisputeRow.findingKind, objectID: $0.disputeID) }
        keys += report.exceptions.map { FindingKey(kind: $0.kind.rawValue, objectID: $0.objectID) }
        return keys
    }

    /// Sets the status of the findings in `open` to `open`; returns how many they are.
    static func markOpen(_ report: inout ReconciliationReport, open: Set<FindingKey>) -> Int {
        var count = 0
        func status(_ key: FindingKey) -> FindingStatus {
            guard open.contains(key) else { return .new }
            count += 1
            return .open
        }
        for index in report.skippedTransfers.indices {
            report.skippedTransfers[index].status = status(
                FindingKey(kind: SkippedTransferRow.findingKind, objectID: report.skippedTransfers[index].chargeID))
        }
        for index in report.unreversedDisputes.indices {
            report.unreversedDisputes[index].status = status(
                FindingKey(kind: UnreversedDisputeRow.findingKind, objectID: report.unreversedDisputes[index].disputeID))
        }
        for index in report.exceptions.indices {
            let row = report.exceptions[index]
            report.exceptions[index].status = status(FindingKey(kind: row.kind.rawValue, objectID: row.objectID))
        }
        return count
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
