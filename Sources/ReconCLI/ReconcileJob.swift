import Foundation
import History
import Logging
import ReconCore
import Reconcile
import Reports

/// Reconciles a range from the history alone and writes its reports: facts in, rules applied, findings
/// marked new or open against earlier runs, CSV files and the workbook written atomically.
struct ReconcileJob {
    let range: ReportingRange
    let configuration: Configuration
    let mode: String
    let context: CommandContext
    let logger: Logger

    struct Outcome {
        /// Every table but the platform fees, which went straight to the files.
        let report: ReconciliationReport
        let platformFeeRows: Int
        let files: ReportFiles
        let newFindings: Int
        let openFindings: Int
        let resolved: [ResolvedFinding]
        let seconds: Double
    }

    func run(recorder: RunRecorder, command: String, extraCounts: [String: Int] = [:]) async throws -> Outcome {
        let now = Int64(context.now().timeIntervalSince1970)
        let pipeline = ReconcilePipeline(
            store: recorder.store, range: range, asOf: now,
            skippedTransferGrace: Int64(configuration.skippedTransferGrace),
            outputDirectory: URL(fileURLWithPath: configuration.outputDirectory, isDirectory: true))
        let outcome = try await pipeline.run(runID: recorder.runID) { findings in
            var counts: [String: Int] = extraCounts
            counts["objects read for the reconcile"] = findings.objectsRead
            counts["platform fee rows"] = findings.platformFeeRows
            counts["findings new"] = findings.newFindings
            counts["findings open"] = findings.openFindings
            counts["findings resolved"] = findings.resolved.count
            return ReportMetadata(
                range: range, runID: recorder.runID, startedAt: now - Int64(recorder.elapsed), finishedAt: now,
                command: command, toolVersion: VersionInfo.tool, stripeVersion: configuration.stripeVersion,
                mode: ReportMetadata.Mode(rawValue: mode) ?? .test, apiBase: configuration.apiBaseURL.absoluteString,
                counts: counts, timings: ["before reports": recorder.elapsed],
                resolvedFindings: findings.resolved.map {
                    ReportMetadata.ResolvedFinding(
                        kind: $0.key.kind, objectID: $0.key.objectID, firstSeenRun: $0.firstRun)
                },
                parameters: [
                    .init("time zone", configuration.timeZoneName),
                    .init("skipped-transfer grace (s)", String(Int(configuration.skippedTransferGrace))),
                    .init("configuration file", configuration.filePath ?? "none"),
                ])
        }
        let findings = outcome.findings
        logger.info(
            "reconcile: \(findings.parts) parts, \(findings.objectsRead) objects read; read \(Self.rounded(outcome.timings.read)) s, rules \(Self.rounded(outcome.timings.rules)) s, reports finished \(Self.rounded(outcome.timings.finish)) s after the rules")
        return Outcome(
            report: findings.report, platformFeeRows: findings.platformFeeRows, files: outcome.files,
            newFindings: findings.newFindings, openFindings: findings.openFindings, resolved: findings.resolved,
            seconds: outcome.timings.total)
    }

    private static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    /// The run's details: counts and totals per currency.
    static func details(_ outcome: Outcome) -> [String: any Sendable] {
        var totals: [String: [String: Int64]] = [:]
        for row in outcome.report.summary {
            totals[row.currency.rawValue] = [
                "destination_charges": Int64(row.destinationCharges), "gross": row.gross,
                "destination_platform_fee": row.destinationPlatformFee, "stripe_fee": row.stripeFee,
                "amount_owed": row.amountOwed, "unrecovered": row.unrecovered,
            ]
        }
        return [
            "platform_fees": outcome.platformFeeRows,
            "skipped_transfers": outcome.report.skippedTransfers.count,
            "unreversed_disputes": outcome.report.unreversedDisputes.count,
            "exceptions": outcome.report.exceptions.count, "findings_new": outcome.newFindings,
            "findings_open": outcome.openFindings, "findings_resolved": outcome.resolved.count,
            "totals": totals, "reconcile_seconds": (outcome.seconds * 1000).rounded() / 1000,
            "report_folder": outcome.files.folder.path,
        ]
    }

    /// What the command prints.
    static func report(_ outcome: Outcome) -> String {
        var lines = ["Reconciled: \(outcome.platformFeeRows) destination charges"]
        for row in outcome.report.summary {
            let fee = (try? Money(minorUnits: row.destinationPlatformFee, currency: row.currency).formatted()) ?? "?"
            lines.append(
                "  \(row.currency.rawValue): \(row.destinationCharges) charges, Destination Platform Fee \(fee), "
                    + "\(row.skippedTransfers) skipped transfers, \(row.unreversedDisputes) unreversed disputes")
        }
        lines.append(
            "  findings: \(outcome.newFindings) new, \(outcome.openFindings) open, \(outcome.resolved.count) resolved; "
                + "\(outcome.report.exceptions.count) exceptions")
        lines.append("Reports: \(outcome.files.folder.path)/")
        lines.append("Workbook: \(outcome.files.workbook.path)")
        return lines.joined(separator: "\n") + "\n"
    }
}
