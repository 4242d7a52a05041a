import ReconCore

/// Money moved by hand, across time (docs/RULES.md, "Money moved by hand, across time"): a transfer reversal made in a
/// range for a transfer of an earlier day, or a transfer of a transfer group made in a range for a group with a
/// charge of an earlier day, changes what the rules say of that earlier charge. The run that sees it records, in
/// `late_reads` (changed, as for a late outcome its reads found):
/// - the charge's refunds and disputes (kinds `refund` and `dispute`): the rules judge them again (refund recovery,
///   unreversed disputes), and a finding they raised is resolved, kept open with its new `actual`, or new;
/// - the charge itself as ``kind``: never judged itself (its checks did not change), it names the report of its
///   day out of date (``HistoryRuns/outOfDateRanges(_:run:)``), since its row did change.
public enum MovedByHand {
    /// `late_reads.kind` of a charge whose money was moved by hand.
    public static let kind = "moved_by_hand"
}

extension HistoryGaps {
    /// Records, for run `runID` over `range` (chain `chain`: the run and those it resumes), the charges of `window`
    /// (the look-back window) whose money a reversal or transfer of the range moved (see ``MovedByHand``), with their
    /// refunds and disputes, and returns how many charges. The moving object counts when this chain saw it first:
    /// one the history held before was already in the reports made since. The charge counts when a completed
    /// extraction covered its day: a charge the range's objects merely brought with them was never judged.
    ///
    /// Which charges: a destination charge whose own transfer was reversed; a charge that belongs to a transfer group
    /// (no destination, no transfer of its own) whose group had a transfer made or reversed: the group named by the
    /// transfer's `transfer_group`, else by its `source_transaction`, and its charges by their own `transfer_group`,
    /// their PaymentIntent's, or a group transfer naming them as `source_transaction` (docs/RULES.md, "Separately
    /// transferred charges"; a wider net than that definition only re-judges a charge whose findings then stay as
    /// they were). And a charge an account debit of the range names (docs/RULES.md, "The platform's other money": by
    /// its metadata under `debitLinkKeys`, or its `transfer_group`), directly, by its PaymentIntent, one of its refunds
    /// or disputes, or its transfer group: the debit may give back what the charge's refund or dispute took.
    @discardableResult
    public func recordMovedByHand(
        run runID: Int64, range: Range<Int64>, window: Range<Int64>, chain: [Int64],
        debitLinkKeys: [String] = ChargeFacts.defaultDebitLinkKeys
    ) async throws(HistoryError) -> Int {
        let seen = "(" + chain.map(String.init).joined(separator: ",") + ")"
        let (chargeTransfer, chargeIntent) = (GraphColumns.chargeTransfer, GraphColumns.chargeIntent)
        let (reversalTransfer, transferSource) = (GraphColumns.reversalTransfer, GraphColumns.transferSource)
        let inRange = "created >= \(range.lowerBound) AND created < \(range.upperBound)"
        return try await writeDatabase { db in
            let debited = SQLValue.text(
                IDList.json(
                    try Self.chargesNamedByDebits(
                        db, range: range, seen: seen, keys: debitLinkKeys)))
            let affected = try db.all(
                """
                WITH debited(id) AS (SELECT id FROM charges WHERE id IN \(db.dialect.idSet)),
                reversed(id) AS (
                    SELECT \(reversalTransfer) FROM transfer_reversals
                    WHERE \(inRange) AND first_seen_run IN \(seen) AND \(reversalTransfer) IS NOT NULL),
                moved(id, transfer_group, source) AS (
                    SELECT id, transfer_group, \(transferSource) FROM transfers
                    WHERE id IN (SELECT id FROM reversed) OR (\(inRange) AND first_seen_run IN \(seen))),
                groups(name) AS (
                    SELECT transfer_group FROM moved WHERE transfer_group IS NOT NULL
                    UNION SELECT source FROM moved WHERE transfer_group IS NULL AND source IS NOT NULL),
                candidates(id) AS (
                    SELECT id FROM charges WHERE \(chargeTransfer) IN (SELECT id FROM reversed)
                    UNION SELECT source FROM moved WHERE source IS NOT NULL
                    UNION SELECT name FROM groups
                    UNION SELECT id FROM charges WHERE transfer_group IN (SELECT name FROM groups)
                    UNION SELECT c.id FROM charges c JOIN payment_intents p ON p.id = c.\(chargeIntent)
                        WHERE p.transfer_group IN (SELECT name FROM groups)
                    UNION SELECT \(transferSource) FROM transfers
                        WHERE transfer_group IN (SELECT name FROM groups) AND \(transferSource) IS NOT NULL
                    UNION SELECT id FROM debited)
                SELECT c.id FROM charges c
                WHERE c.id IN (SELECT id FROM candidates)
                  AND c.created >= \(window.lowerBound) AND c.created < \(window.upperBound)
                  AND (c.\(chargeTransfer) IN (SELECT id FROM reversed) OR c.id IN (SELECT id FROM debited)
                       OR (c.\(chargeTransfer) IS NULL AND c.transfer_destination IS NULL))
                  AND EXISTS (SELECT 1 FROM runs r WHERE r.status = 'completed' AND r.command IN ('run', 'extract')
                              AND r.range_from <= c.created AND r.range_to > c.created)
                ORDER BY c.id
                """, [debited]
            ) { try String(row: $0, at: 0) }
            guard !affected.isEmpty else { return 0 }
            let ids = SQLValue.text(IDList.json(affected))
            let upsert = "ON CONFLICT (run_id, kind, object_id) DO UPDATE SET changed = TRUE"
            try db.execute(
                """
                INSERT INTO late_reads (run_id, kind, object_id, created, state_before, changed)
                SELECT CAST(? AS BIGINT), '\(MovedByHand.kind)', t.id, t.created, '', TRUE FROM charges t
                WHERE t.id IN \(db.dialect.idSet)
                \(upsert)
                """, [.integer(runID), ids])
            for (kind, column) in [
                (LateOutcomeKind.refund, GraphColumns.refundCharge), (.dispute, GraphColumns.disputeCharge),
            ] {
                try db.execute(
                    """
                    INSERT INTO late_reads (run_id, kind, object_id, created, state_before, changed)
                    SELECT CAST(? AS BIGINT), '\(kind.rawValue)', t.id, t.created, \(kind.state(youngWhen: "FALSE")),
                        TRUE
                    FROM \(kind.table) AS t WHERE t.\(column) IN \(db.dialect.idSet)
                    \(upsert)
                    """, [.integer(runID), ids])
            }
            return affected.count
        }
    }

    /// The charges the account debits of `range` that chain `seen` saw first name (``ChargeFacts/debitLinks(keys:)``):
    /// a charge by its id, or through its PaymentIntent, one of its refunds or disputes, or its transfer group (its own
    /// `transfer_group` or its PaymentIntent's). Debits are few: read by the partial index, their links resolved here.
    static func chargesNamedByDebits(
        _ db: SQLSession, range: Range<Int64>, seen: String, keys: [String]
    ) throws -> [String] {
        let debits = try HistoryObjects.accountDebits(db, created: range, firstSeenIn: seen)
        let links = Array(Set(debits.flatMap { $0.debitLinks(keys: keys) }))
        guard !links.isEmpty else { return [] }
        let named = SQLValue.text(IDList.json(links))
        let idSet = db.dialect.idSet
        return try db.all(
            """
            SELECT id FROM charges WHERE id IN \(idSet)
            UNION SELECT id FROM charges WHERE \(GraphColumns.chargeIntent) IN \(idSet)
            UNION SELECT \(GraphColumns.refundCharge) FROM refunds
                WHERE id IN \(idSet) AND \(GraphColumns.refundCharge) IS NOT NULL
            UNION SELECT \(GraphColumns.disputeCharge) FROM disputes WHERE id IN \(idSet)
            UNION SELECT id FROM charges WHERE transfer_group IN \(idSet)
            UNION SELECT c.id FROM charges c JOIN payment_intents p ON p.id = c.\(GraphColumns.chargeIntent)
                WHERE p.transfer_group IN \(idSet)
            """, Array(repeating: named, count: 6)
        ) { try String(row: $0, at: 0) }.filter { !$0.isEmpty }
    }
}
