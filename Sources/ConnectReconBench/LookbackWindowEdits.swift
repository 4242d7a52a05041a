import Foundation
import ReconCore

/// The states the look-back benchmark gives a window of a history, set with the `sqlite3` tool (``SQLiteCommand``):
/// each edit changes an object's fact columns and its raw JSON alike, so the history reads as if Stripe had sent
/// the object in that state. Which objects are not final is ``LateOutcomePolicy``'s (and `LateOutcomeKind`'s, in
/// `History`): the edits follow it, and the benchmark checks that a run reads nothing again after ``settle``.
enum LookbackWindowEdits {
    /// Makes every object of `window` that a run would read again final: charges not final `succeeded`, refunds not
    /// final `succeeded`, open disputes `won`, automatic payouts not final `paid` and `completed`, and a `paid`
    /// payout's arrival moved back to the end of the window in which Stripe says it can still fail (as `now` sees
    /// it). Returns how many objects of each kind changed.
    static func settle(_ database: String, window: Range<Int64>, now: Int64) throws -> [(kind: String, count: Int)] {
        let inWindow = "created >= \(window.lowerBound) AND created < \(window.upperBound)"
        let chargeFinal = list(LateOutcomePolicy.finalChargeStatuses.map(\.rawValue))
        let refundFinal = list(LateOutcomePolicy.finalRefundStatuses.map(\.rawValue))
        let disputeFinal = list(LateOutcomePolicy.finalDisputeStatuses.map(\.rawValue))
        let payoutFinal = list(LateOutcomePolicy.finalPayoutStatuses.map(\.rawValue))
        let arrival = now - LateOutcomePolicy.paidPayoutFailureWindow
        let payoutOpen = """
            automatic AND \(inWindow) AND (status NOT IN \(payoutFinal)
             OR COALESCE(reconciliation_status, 'completed') <> 'completed'
             OR (status = 'paid' AND arrival_date > \(arrival)))
            """
        let edits: [(kind: String, table: String, condition: String, set: [(column: String, value: String)])] = [
            (
                "charges", "charges", "\(inWindow) AND status NOT IN \(chargeFinal)",
                [("status", quoted(ChargeStatus.succeeded.rawValue))]
            ),
            (
                "refunds", "refunds", "\(inWindow) AND COALESCE(status, 'succeeded') NOT IN \(refundFinal)",
                [("status", quoted(RefundStatus.succeeded.rawValue))]
            ),
            (
                "disputes", "disputes", "\(inWindow) AND status NOT IN \(disputeFinal)",
                [("status", quoted(DisputeStatus.won.rawValue))]
            ),
            (
                "payouts", "payouts", payoutOpen,
                [
                    ("status", "CASE WHEN status IN \(payoutFinal) THEN status ELSE 'paid' END"),
                    ("reconciliation_status", "CASE WHEN reconciliation_status IS NULL THEN NULL ELSE 'completed' END"),
                    ("arrival_date", "MIN(arrival_date, \(arrival))"),
                ]
            ),
        ]
        var changed: [(kind: String, count: Int)] = []
        for edit in edits {
            changed.append((edit.kind, try update(database, edit.table, where: edit.condition, set: edit.set)))
        }
        return changed
    }

    /// Makes every `share`-th charge of `window` (by creation time) `pending`; returns how many.
    static func makeChargesPending(_ database: String, window: Range<Int64>, every share: Int) throws -> Int {
        let picked = """
            id IN (SELECT id FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created, id) AS n FROM charges
                                   WHERE created >= \(window.lowerBound) AND created < \(window.upperBound))
                   WHERE n % \(share) = 0)
            """
        return try update(database, "charges", where: picked, set: [("status", quoted(ChargeStatus.pending.rawValue))])
    }

    /// Sets `set` (columns and SQL values, computed from the row as it was) on the rows of `table` that match
    /// `condition`, in the facts and, by the same JSON keys, in the raw JSON; one transaction. Returns how many rows.
    private static func update(
        _ database: String, _ table: String, where condition: String, set: [(column: String, value: String)]
    ) throws -> Int {
        let json = set.map { "'$.\($0.column)', \($0.value)" }.joined(separator: ", ")
        let facts = set.map { "\($0.column) = \($0.value)" }.joined(separator: ", ")
        let printed = try SQLiteCommand.run(
            database,
            """
            BEGIN;
            CREATE TEMP TABLE edited AS SELECT id FROM \(table) WHERE \(condition);
            UPDATE \(table)_raw SET raw = (SELECT json_set(\(table)_raw.raw, \(json)) FROM \(table)
                                           WHERE \(table).id = \(table)_raw.id)
            WHERE id IN (SELECT id FROM edited);
            UPDATE \(table) SET \(facts) WHERE id IN (SELECT id FROM edited);
            SELECT COUNT(*) FROM edited;
            COMMIT;
            """)
        guard let count = Int(printed) else { throw BenchError("sqlite3 printed '\(printed)' for \(table)") }
        return count
    }

    private static func quoted(_ value: String) -> String { "'\(value)'" }

    private static func list(_ values: [String]) -> String { "(" + values.map(quoted).joined(separator: ", ") + ")" }
}
