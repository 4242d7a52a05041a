import History
import ReconCore

extension ReconcilePipeline {
    /// The findings of a report: skipped transfers, unreversed disputes and exceptions, each with the object whose
    /// judging raised it.
    static func findings(_ report: ReconciliationReport) -> [Finding] {
        var findings: [Finding] = []
        findings += report.skippedTransfers.map {
            Finding(
                key: FindingKey(kind: SkippedTransferRow.findingKind, objectID: $0.chargeID),
                subject: FindingSubject(id: $0.chargeID, created: $0.created))
        }
        findings += report.unreversedDisputes.map {
            Finding(
                key: FindingKey(kind: UnreversedDisputeRow.findingKind, objectID: $0.disputeID),
                subject: FindingSubject(id: $0.disputeID, created: $0.created))
        }
        findings += report.exceptions.map {
            Finding(key: FindingKey(kind: $0.kind.rawValue, objectID: $0.objectID), subject: $0.subject)
        }
        return findings
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
                FindingKey(kind: UnreversedDisputeRow.findingKind, objectID: report.unreversedDisputes[index].disputeID)
            )
        }
        for index in report.exceptions.indices {
            let row = report.exceptions[index]
            report.exceptions[index].status = status(FindingKey(kind: row.kind.rawValue, objectID: row.objectID))
        }
        return count
    }
}
