import GRDB
import ReconCore

extension HistoryStore {
    /// Records the findings of run `runID` over `[from, to)` and tells which were already open and which
    /// earlier findings of an overlapping range are gone (resolved). One transaction.
    public func recordFindings(
        _ findings: [FindingKey], run runID: Int64, from: Int64, to: Int64
    ) async throws(HistoryError) -> FindingsUpdate {
        try await writeDatabase { db in
            var open = Set<FindingKey>()
            let current = Set(findings)
            let upsert = try db.cachedStatement(
                sql: """
                    INSERT INTO findings (kind, object_id, first_run, last_run, resolved_run, range_from, range_to)
                    VALUES (?, ?, ?, ?, NULL, ?, ?)
                    ON CONFLICT(kind, object_id) DO UPDATE SET last_run = excluded.last_run, resolved_run = NULL,
                        range_from = excluded.range_from, range_to = excluded.range_to
                    RETURNING reported_run
                    """)
            for key in current {
                // Open when a completed run reported it before; what only failed runs saw is still new.
                let reportedRun =
                    try Int64?.fetchOne(
                        upsert, arguments: [key.kind, key.objectID, runID, runID, from, to]) ?? nil
                if let reportedRun, reportedRun != runID { open.insert(key) }
            }
            // Gone: reported, unresolved findings of an overlapping range that this run does not see.
            let candidates = try Row.fetchAll(
                db,
                sql: """
                    SELECT kind, object_id, first_run, last_run FROM findings
                    WHERE resolved_run IS NULL AND reported_run IS NOT NULL AND last_run <> ?
                      AND range_from < ? AND range_to > ?
                    """, arguments: [runID, to, from])
            var resolved: [ResolvedFinding] = []
            for row in candidates {
                let key = FindingKey(kind: row["kind"], objectID: row["object_id"])
                guard !current.contains(key) else { continue }
                resolved.append(ResolvedFinding(key: key, firstRun: row["first_run"], lastRun: row["last_run"]))
                try db.execute(
                    sql: "UPDATE findings SET resolved_run = ? WHERE kind = ? AND object_id = ?",
                    arguments: [runID, key.kind, key.objectID])
            }
            return FindingsUpdate(
                open: open,
                resolved: resolved.sorted { ($0.key.kind, $0.key.objectID) < ($1.key.kind, $1.key.objectID) })
        }
    }

    /// Whether the history has extracted `[from, to)` completely at least once (a completed run that fetched).
    public func hasCompletedExtraction(from: Int64, to: Int64) throws(HistoryError) -> Bool {
        try readDatabase { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM runs WHERE status = 'completed' AND command IN ('extract', 'run')
                                   AND range_from <= ? AND range_to >= ?)
                    """, arguments: [from, to]) ?? false
        }
    }

    /// The facts of `[from, to)` and of every object they refer to, for the reconciler, all at once.
    ///
    /// The reference definition of a range's input: `reconcile` and `run` read the same facts in parts
    /// (``forEachReconciliationPart(from:to:asOf:skippedTransferGrace:chargesPerPart:_:)``), and a test holds
    /// the two to the same report. A million charges take gigabytes this way.
    ///
    /// Scope as in SPEC §3: the range's charges and the charges of its refunds, disputes, transfers and fees;
    /// those charges' PaymentIntents, transfers, fees, refunds and disputes; the transfers' reversals and the
    /// fees' refunds; transfers that pay back a dispute in scope; the range's payouts and what `?payout=` listed
    /// for them; and every balance transaction of all these plus the range's own balance transactions.
    public func reconciliationInput(
        from: Int64, to: Int64, asOf: Int64, skippedTransferGrace: Int64
    ) async throws(HistoryError) -> ReconciliationInput {
        try await writeDatabase { db in
            let arguments: StatementArguments = ["from": from, "to": to]
            try HistoryScope.createScopeCharges(db, from: from, to: to)
            for table in ["transfers", "fees", "disputes", "balance"] {
                try db.execute(sql: "DROP TABLE IF EXISTS temp.scope_\(table)")
                try db.execute(sql: "CREATE TEMP TABLE scope_\(table) (id TEXT PRIMARY KEY)")
            }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO scope_disputes
                    SELECT id FROM disputes WHERE (created >= :from AND created < :to)
                        OR charge_id IN (SELECT id FROM scope_charges)
                    """, arguments: arguments)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO scope_transfers
                    SELECT id FROM transfers WHERE (created >= :from AND created < :to)
                        OR id IN (SELECT transfer_id FROM charges WHERE id IN (SELECT id FROM scope_charges))
                        OR dispute_id_metadata IN (SELECT id FROM scope_disputes)
                    """, arguments: arguments)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO scope_fees
                    SELECT id FROM application_fees WHERE (created >= :from AND created < :to)
                        OR id IN (SELECT application_fee_id FROM charges WHERE id IN (SELECT id FROM scope_charges))
                    """, arguments: arguments)
            let refundsInScope =
                "t.charge_id IN (SELECT id FROM scope_charges) OR (t.created >= :from AND t.created < :to)"
            let namedTransactions = HistoryScope.balanceTransactionsNamed(by: [
                (.charge, "t.id IN (SELECT id FROM scope_charges)"),
                (.transfer, "t.id IN (SELECT id FROM scope_transfers)"),
                (.transferReversal, "t.transfer_id IN (SELECT id FROM scope_transfers)"),
                (.applicationFee, "t.id IN (SELECT id FROM scope_fees)"),
                (.feeRefund, "t.fee_id IN (SELECT id FROM scope_fees)"),
                (.refund, refundsInScope),
                (.dispute, "t.id IN (SELECT id FROM scope_disputes)"),
            ])
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO scope_balance
                    SELECT id FROM balance_transactions WHERE created >= :from AND created < :to
                    UNION ALL \(namedTransactions)
                    UNION ALL SELECT balance_transaction_id FROM payout_transactions
                        WHERE payout_id IN (SELECT id FROM payouts WHERE created >= :from AND created < :to)
                    """, arguments: arguments)

            func load<Facts: StorableFacts>(_ type: Facts.Type, _ condition: String) throws -> [Facts] {
                try HistoryStore.fetchFacts(type, db: db, condition: condition, arguments: arguments)
            }
            let input = ReconciliationInput(
                from: from, to: to, asOf: asOf, skippedTransferGrace: skippedTransferGrace,
                charges: try load(ChargeFacts.self, "id IN (SELECT id FROM scope_charges)"),
                paymentIntents: try load(
                    PaymentIntentFacts.self,
                    "id IN (SELECT payment_intent_id FROM charges WHERE id IN (SELECT id FROM scope_charges))"),
                transfers: try load(TransferFacts.self, "id IN (SELECT id FROM scope_transfers)"),
                transferReversals: try load(
                    TransferReversalFacts.self, "transfer_id IN (SELECT id FROM scope_transfers)"),
                applicationFees: try load(ApplicationFeeFacts.self, "id IN (SELECT id FROM scope_fees)"),
                feeRefunds: try load(FeeRefundFacts.self, "fee_id IN (SELECT id FROM scope_fees)"),
                refunds: try load(
                    RefundFacts.self,
                    "charge_id IN (SELECT id FROM scope_charges) OR (created >= :from AND created < :to)"),
                disputes: try load(DisputeFacts.self, "id IN (SELECT id FROM scope_disputes)"),
                balanceTransactions: try load(BalanceTransactionFacts.self, "id IN (SELECT id FROM scope_balance)"),
                payouts: try load(PayoutFacts.self, "created >= :from AND created < :to"),
                payoutTransactions: try HistoryStore.payoutLinks(
                    db, "payout_id IN (SELECT id FROM payouts WHERE created >= :from AND created < :to)", arguments),
                missingObjects: try HistoryStore.missingObjects(db, from: from, to: to))
            for table in ["charges", "transfers", "fees", "disputes", "balance"] {
                try db.execute(sql: "DROP TABLE temp.scope_\(table)")
            }
            return input
        }
    }

    /// The payout links matching `condition`, by payout, then balance transaction.
    static func payoutLinks(
        _ db: Database, _ condition: String, _ arguments: StatementArguments
    ) throws -> [PayoutTransactionLink] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT payout_id, balance_transaction_id FROM payout_transactions WHERE \(condition)
                ORDER BY payout_id, balance_transaction_id
                """, arguments: arguments
        ).map { PayoutTransactionLink(payoutID: $0[0], balanceTransactionID: $0[1]) }
    }

    /// The objects Stripe answered 404 for during the runs of ranges overlapping `[from, to)` and that the history
    /// still lacks (a later run may have found them).
    static func missingObjects(_ db: Database, from: Int64, to: Int64) throws -> [(kind: ObjectKind, id: String)] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT DISTINCT m.kind, m.object_id FROM missing_objects m JOIN runs r ON r.id = m.run_id
                WHERE r.range_from < :to AND r.range_to > :from ORDER BY m.kind, m.object_id
                """, arguments: ["from": from, "to": to]
        ).compactMap { row in
            guard let kind = ObjectKind(rawValue: row["kind"]) else { return nil }
            let id: String = row["object_id"]
            let table = kind.entry.table
            let present =
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", arguments: [id])
                ?? false
            return present ? nil : (kind: kind, id: id)
        }
    }
}
