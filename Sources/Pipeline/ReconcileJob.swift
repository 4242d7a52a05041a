import Foundation
import History
import Logging
import ReconCore
import Reconcile
import Reports

/// Reconciles a range from the history alone and writes its reports: facts in, rules applied, findings marked new
/// or open against earlier runs, CSV files and the workbook written atomically.
public struct ReconcileJob {
    public var range: ReportingRange
    public var settings: RunSettings
    /// The mode of the key the history's objects were fetched with (`test` or `live`).
    public var mode: StripeMode
    public var logger: Logger

    public init(range: ReportingRange, settings: RunSettings, mode: StripeMode, logger: Logger) {
        self.range = range
        self.settings = settings
        self.mode = mode
        self.logger = logger
    }

    public struct Outcome: Sendable {
        /// Every table but the platform fees, which went straight to the files.
        public let report: ReconciliationReport
        public let platformFeeRows: Int
        public let files: ReportFiles
        public let newFindings: Int
        public let openFindings: Int
        public let resolved: [ResolvedFinding]
        /// Late outcomes the rules judged (objects of earlier days whose outcome came since).
        public let lateOutcomes: Int
        /// Earlier ranges whose reports are out of date because one of their objects' outcome changed.
        public let outOfDateRanges: [ReportingRange]
        public let seconds: Double
        /// Links of the range's account debits that name nothing the history holds (the Run sheet lists them).
        public var unmatchedDebitLinks: [UnmatchedDebitLink] = []
    }

    /// Reconciles the range as part of `recorder`'s run, for `command`. `extraCounts` join the Run sheet's counts.
    public func run(recorder: RunRecorder, command: String, extraCounts: [String: Int] = [:]) async throws -> Outcome {
        let now = recorder.unixNow
        var pipeline = ReconcilePipeline(
            store: recorder.store, range: range, asOf: now, skippedTransferGrace: settings.skippedTransferGrace,
            outputDirectory: settings.outputDirectory)
        pipeline.lookbackSeconds = settings.lookbackSeconds
        pipeline.debitLinkKeys = settings.debitLinkKeys
        let (from, to) = range.unixSeconds
        let unmatched = try await recorder.store.gaps.unmatchedDebitLinks(
            from: from, to: to, keys: settings.debitLinkKeys)
        let outcome = try await pipeline.run(runID: recorder.runID) { findings in
            var metadata = metadata(findings, recorder: recorder, now: now, command: command, extraCounts: extraCounts)
            metadata.unmatchedDebitLinks = unmatched
            return metadata
        }
        let findings = outcome.findings
        recorder.recordOnCompletion(dailyPlatformFees: findings.report.dailyPlatformFees)
        let timings = outcome.timings
        let message =
            "reconcile: \(findings.parts) parts, \(findings.objectsRead) objects read; "
            + "read \(timings.read.roundedToMilliseconds) s, rules \(timings.rules.roundedToMilliseconds) s, "
            + "findings \(timings.findings.roundedToMilliseconds) s, "
            + "reports finished \(timings.finish.roundedToMilliseconds) s after the rules (the writer's thread: "
            + "CSV \(timings.writer.csv.roundedToMilliseconds) s, "
            + "XLSX rows \(timings.writer.workbookRows.roundedToMilliseconds) s, "
            + "XLSX zip \(timings.writer.workbookClose.roundedToMilliseconds) s); workbook zipped at "
            + (outcome.files.workbookZipLevel.map {
                "level \($0) by \(ReportFiles.workbookZipCompressor) on \(Self.threads(ReportFiles.workbookZipThreads))"
            }
                ?? "zlib's default level (the zip-level override is not active here)")
        logger.info("\(message)")
        var result = Outcome(
            report: findings.report, platformFeeRows: findings.platformFeeRows, files: outcome.files,
            newFindings: findings.newFindings, openFindings: findings.openFindings, resolved: findings.resolved,
            lateOutcomes: findings.lateOutcomes, outOfDateRanges: Self.ranges(findings.outOfDateRanges),
            seconds: timings.total)
        result.unmatchedDebitLinks = unmatched
        return result
    }

    /// The Run sheet's metadata for what the rules found.
    private func metadata(
        _ findings: ReconcilePipeline.Findings, recorder: RunRecorder, now: Int64, command: String,
        extraCounts: [String: Int]
    ) -> ReportMetadata {
        var counts = extraCounts
        counts["objects read for the reconcile"] = findings.objectsRead
        counts["platform fee rows"] = findings.platformFeeRows
        counts["findings new"] = findings.newFindings
        counts["findings open"] = findings.openFindings
        counts["findings resolved"] = findings.resolved.count
        if settings.lookbackSeconds > 0 { counts["late outcomes judged"] = findings.lateOutcomes }
        return ReportMetadata(
            range: range, runID: recorder.runID, startedAt: now - Int64(recorder.elapsed), finishedAt: now,
            command: command, toolVersion: settings.toolVersion, stripeVersion: settings.stripeVersion,
            mode: mode, apiBase: settings.apiBaseURL.absoluteString,
            counts: counts, timings: ["before reports": recorder.elapsed], resolvedFindings: findings.resolved,
            outOfDateRanges: Self.ranges(findings.outOfDateRanges),
            parameters: settings.reportParameters.map { ReportMetadata.Parameter($0.name, $0.value) })
    }

    /// "one thread" or "N threads", for the log.
    static func threads(_ count: Int) -> String { count == 1 ? "one thread" : "\(count) threads" }

    /// The history's out-of-date ranges as reporting ranges (a time zone the system does not know reads as UTC).
    static func ranges(_ ranges: [OutOfDateRange]) -> [ReportingRange] {
        ranges.compactMap {
            try? ReportingRange(
                from: Date(timeIntervalSince1970: TimeInterval($0.from)),
                to: Date(timeIntervalSince1970: TimeInterval($0.to)),
                timeZone: TimeZone(identifier: $0.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current)
        }
    }

    /// The run's details: counts and totals per currency.
    public static func details(_ outcome: Outcome) -> [String: any Sendable] {
        var totals: [String: [String: Int64]] = [:]
        for row in outcome.report.summary {
            totals[row.currency.rawValue] = [
                "destination_charges": Int64(row.destinationCharges), "gross": row.gross,
                "destination_platform_fee": row.destinationPlatformFee, "stripe_fee": row.stripeFee,
                "amount_owed": row.amountOwed, "unrecovered": row.unrecovered,
                "pending_charges": Int64(row.pendingCharges), "pending_amount": row.pendingAmount,
                "transfer_groups": Int64(row.transferGroups), "platform_take": row.platformTake,
                "stripe_costs": row.stripeCosts, "account_debits": row.accountDebits,
                "losses_covered": row.lossesCovered,
            ]
        }
        return [
            "platform_fees": outcome.platformFeeRows, "transfer_groups": outcome.report.transferGroups.count,
            "skipped_transfers": outcome.report.skippedTransfers.count,
            "unreversed_disputes": outcome.report.unreversedDisputes.count,
            "exceptions": outcome.report.exceptions.count, "findings_new": outcome.newFindings,
            "findings_open": outcome.openFindings, "findings_resolved": outcome.resolved.count,
            "resolved_findings": outcome.resolved.map { finding -> [String: String] in
                ["kind": finding.key.kind, "object_id": finding.key.objectID]
            },
            "late_outcomes": outcome.lateOutcomes,
            "unmatched_debit_links": outcome.unmatchedDebitLinks.map { ["debit_id": $0.debitID, "link": $0.link] },
            "out_of_date_ranges": outcome.outOfDateRanges.map { range -> [String: String] in
                [
                    "from": RFC3339.string(range.from, in: range.timeZone),
                    "to": RFC3339.string(range.to, in: range.timeZone), "report_folder": range.folderName,
                    "action": range.rerunAdvice,
                ]
            },
            "totals": totals, "reconcile_seconds": outcome.seconds.roundedToMilliseconds,
            "report_folder": outcome.files.folder.path,
        ]
    }
}
