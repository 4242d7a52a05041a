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
        let report: ReconciliationReport
        let files: ReportFiles
        let newFindings: Int
        let openFindings: Int
        let resolved: [ResolvedFinding]
        let seconds: Double
    }

    func run(recorder: RunRecorder, command: String, extraCounts: [String: Int] = [:]) async throws -> Outcome {
        let clock = ContinuousClock()
        let began = clock.now
        let (from, to) = range.unixSeconds
        let now = Int64(context.now().timeIntervalSince1970)
        let input = try await recorder.store.reconciliationInput(
            from: from, to: to, asOf: now, skippedTransferGrace: Int64(configuration.skippedTransferGrace))
        var report = Reconciler.reconcile(input)

        // Mark findings new or open against earlier runs; find the ones that are gone.
        var keys: [FindingKey] = []
        keys += report.skippedTransfers.map { FindingKey(kind: "skipped_transfer", objectID: $0.chargeID) }
        keys += report.unreversedDisputes.map { FindingKey(kind: "unreversed_dispute", objectID: $0.disputeID) }
        keys += report.exceptions.map { FindingKey(kind: $0.kind.rawValue, objectID: $0.objectID) }
        let update = try await recorder.store.recordFindings(keys, run: recorder.runID, from: from, to: to)
        func status(_ key: FindingKey) -> FindingStatus { update.open.contains(key) ? .open : .new }
        for index in report.skippedTransfers.indices {
            report.skippedTransfers[index].status = status(
                FindingKey(kind: "skipped_transfer", objectID: report.skippedTransfers[index].chargeID))
        }
        for index in report.unreversedDisputes.indices {
            report.unreversedDisputes[index].status = status(
                FindingKey(kind: "unreversed_dispute", objectID: report.unreversedDisputes[index].disputeID))
        }
        for index in report.exceptions.indices {
            let row = report.exceptions[index]
            report.exceptions[index].status = status(FindingKey(kind: row.kind.rawValue, objectID: row.objectID))
        }
        let openCount = keys.filter { update.open.contains($0) }.count

        var counts: [String: Int] = extraCounts
        counts["charges in scope"] = input.charges.count
        counts["balance transactions in scope"] = input.balanceTransactions.count
        counts["platform fee rows"] = report.platformFees.count
        counts["findings new"] = keys.count - openCount
        counts["findings open"] = openCount
        counts["findings resolved"] = update.resolved.count
        let metadata = ReportMetadata(
            range: range, runID: recorder.runID, startedAt: now - Int64(recorder.elapsed), finishedAt: now,
            command: command, toolVersion: VersionInfo.tool, stripeVersion: configuration.stripeVersion,
            mode: ReportMetadata.Mode(rawValue: mode) ?? .test, apiBase: configuration.apiBaseURL.absoluteString,
            counts: counts, timings: ["before reports": recorder.elapsed],
            resolvedFindings: update.resolved.map {
                ReportMetadata.ResolvedFinding(kind: $0.key.kind, objectID: $0.key.objectID, firstSeenRun: $0.firstRun)
            },
            parameters: [
                .init("time zone", configuration.timeZoneName),
                .init("skipped-transfer grace (s)", String(Int(configuration.skippedTransferGrace))),
                .init("configuration file", configuration.filePath ?? "none"),
            ])
        let files = try ReportWriter.write(
            report, metadata: metadata, to: URL(fileURLWithPath: configuration.outputDirectory, isDirectory: true))
        return Outcome(
            report: report, files: files, newFindings: keys.count - openCount, openFindings: openCount,
            resolved: update.resolved, seconds: RunRecorder.seconds(clock.now - began))
    }

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
            "platform_fees": outcome.report.platformFees.count,
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
        var lines = ["Reconciled: \(outcome.report.platformFees.count) destination charges"]
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
