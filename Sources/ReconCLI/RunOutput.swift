import Extract
import Foundation
import Pipeline
import ReconCore
import Reports
import StripeAPI

/// What the range commands print on standard output.
enum RunOutput {
    /// The report files, as `run` and `reconcile` describe them in `--help`.
    static let reportFilesHelp = """
        Reports go to <out>/<from>_<to>/: platform_fees.csv, skipped_transfers.csv, unreversed_disputes.csv, \
        exceptions.csv, ledger.csv, summary.csv, connected_accounts.csv, payouts.csv, payout_transactions.csv and \
        reconciliation_<from>_<to>.xlsx (it opens on its Summary sheet).
        """

    /// The summary lines printed when extraction ends.
    static func extraction(_ outcome: ExtractionJob.Outcome, runID: Int64) -> String {
        let summary = outcome.summary
        let stats = outcome.statistics
        var lines = [
            "Extracted \(summary.objects) objects in \(String(format: "%.1f", outcome.seconds)) s (run \(runID)):"
        ]
        for (resource, count) in summary.objectsByResource.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(resource.padding(toLength: 22, withPad: " ", startingAt: 0)) \(count)")
        }
        lines.append(
            "  stored: \(summary.new) new, \(summary.updated) changed, \(summary.unchanged) unchanged"
                + (summary.missing > 0 ? ", \(summary.missing) referenced objects not found" : ""))
        let rate = outcome.seconds > 0 ? Double(stats.requests) / outcome.seconds : 0
        lines.append(
            "  requests: \(stats.requests) (\(String(format: "%.1f", rate))/s), \(stats.retries) retries, "
                + "\(stats.rateLimited) rate-limited, "
                + "\(summary.followUps) follow-ups in \(summary.followUpRounds) rounds"
        )
        if summary.resumedWindows > 0 { lines.append("  resumed: \(summary.resumedWindows) windows already finished") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What `run` and `reconcile` print when the reports are written.
    static func reconciliation(_ outcome: ReconcileJob.Outcome) -> String {
        var lines = ["Reconciled: \(outcome.platformFeeRows) destination charges"]
        for row in outcome.report.summary {
            let fee = (try? Money(minorUnits: row.destinationPlatformFee, currency: row.currency).formatted()) ?? "?"
            lines.append(
                "  \(row.currency.rawValue): \(row.destinationCharges) charges, Destination Platform Fee \(fee), "
                    + "\(row.skippedTransfers) skipped transfers, \(row.unreversedDisputes) unreversed disputes"
                    + groups(row) + costs(row))
        }
        lines.append(
            "  findings: \(outcome.newFindings) new, \(outcome.openFindings) open, \(outcome.resolved.count) resolved; "
                + "\(outcome.report.exceptions.count) exceptions")
        lines.append("Reports: \(outcome.files.folder.path)/")
        lines.append("Workbook: \(outcome.files.workbook.path)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `, Stripe's costs outside charges 12.34, account debits 4.00, losses covered 50.00`: the platform's other
    /// money, each figure when the currency has any.
    private static func costs(_ row: SummaryRow) -> String {
        [
            ("Stripe's costs outside charges", row.stripeCosts), ("account debits", row.accountDebits),
            ("losses covered", row.lossesCovered),
        ].filter { $0.1 != 0 }.map { name, minorUnits in
            ", \(name) " + ((try? Money(minorUnits: minorUnits, currency: row.currency).formatted()) ?? "?")
        }.joined()
    }

    /// `, 3 transfer groups with a platform take of 75.00` when the currency has any.
    private static func groups(_ row: SummaryRow) -> String {
        guard row.transferGroups > 0 else { return "" }
        let take = (try? Money(minorUnits: row.platformTake, currency: row.currency).formatted()) ?? "?"
        return ", \(row.transferGroups) transfer groups with a platform take of \(take)"
    }
}
