import ReconCore

extension HistoryStore {
    /// Records the findings of run `runID` over `[from, to)` and tells which were already open and which earlier
    /// findings are gone (resolved). One transaction.
    ///
    /// A run resolves an earlier finding only when it judged the finding's object itself (SPEC §5): created in
    /// `[from, to)`, or a late outcome of `late` (whose judging this records too); a finding about no judged object
    /// (an object Stripe answered 404 for) only when the run's range covers the range that last reported it.
    /// Findings about objects outside the run are left as they were: a 3-day re-run after a 30-day run neither
    /// resolves nor re-opens the other 27 days' findings.
    public func recordFindings(
        _ findings: [Finding], run runID: Int64, from: Int64, to: Int64, late: LateOutcomeSelection? = nil
    ) async throws(HistoryError) -> FindingsUpdate {
        try await writeDatabase { db in
            var open = Set<FindingKey>()
            var unique: [FindingKey: Finding] = [:]
            for finding in findings where unique[finding.key] == nil { unique[finding.key] = finding }
            let current = Array(unique.values)
            let upsert = """
                INSERT INTO findings (kind, object_id, first_run, last_run, resolved_run, range_from, range_to,
                                      subject_id, subject_created)
                VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?)
                ON CONFLICT(kind, object_id) DO UPDATE SET last_run = excluded.last_run, resolved_run = NULL,
                    range_from = excluded.range_from, range_to = excluded.range_to,
                    subject_id = excluded.subject_id, subject_created = excluded.subject_created
                RETURNING reported_run
                """
            // Open when a completed run reported it before; what only failed runs saw is still new.
            try db.executeEach(
                upsert,
                current.map {
                    [
                        .text($0.key.kind), .text($0.key.objectID), .integer(runID), .integer(runID), .integer(from),
                        .integer(to), $0.subject.map { .text($0.id) } ?? .null,
                        $0.subject.map { .integer($0.created) } ?? .null,
                    ]
                }
            ) { index, row in
                guard let row, let reportedRun = try row.decode(Int64?.self, atIndex: 0), reportedRun != runID else {
                    return
                }
                open.insert(current[index].key)
            }
            // Gone: reported, unresolved findings about an object this run judged, that it does not find now.
            let lateSubjects =
                late.map { "OR subject_id IN (SELECT l.object_id FROM late_reads l WHERE \($0.condition))" } ?? ""
            let candidates = try db.all(
                """
                SELECT kind, object_id, first_run, last_run FROM findings
                WHERE resolved_run IS NULL AND reported_run IS NOT NULL AND last_run <> ?
                  AND ((subject_created >= ? AND subject_created < ?) \(lateSubjects)
                       OR (subject_created IS NULL AND range_from >= ? AND range_to <= ?))
                """, [.integer(runID), .integer(from), .integer(to), .integer(from), .integer(to)]
            ) { row in
                ResolvedFinding(
                    key: FindingKey(kind: try row.decode(atIndex: 0), objectID: try row.decode(atIndex: 1)),
                    firstRun: try row.decode(atIndex: 2), lastRun: try row.decode(atIndex: 3))
            }
            let resolved = candidates.filter { unique[$0.key] == nil }
            try db.executeEach(
                "UPDATE findings SET resolved_run = ? WHERE kind = ? AND object_id = ?",
                resolved.map { [.integer(runID), .text($0.key.kind), .text($0.key.objectID)] }
            ) { _, _ in }
            if let late { try Self.markJudged(db, late, run: runID) }
            return FindingsUpdate(
                open: open,
                resolved: resolved.sorted { ($0.key.kind, $0.key.objectID) < ($1.key.kind, $1.key.objectID) })
        }
    }

    /// Whether the history has extracted `[from, to)` completely at least once (a completed run that fetched).
    public func hasCompletedExtraction(from: Int64, to: Int64) throws(HistoryError) -> Bool {
        try read { db in
            try db.value(
                Bool.self,
                """
                SELECT EXISTS (SELECT 1 FROM runs WHERE status = 'completed' AND command IN ('extract', 'run')
                               AND range_from <= ? AND range_to >= ?)
                """, [.integer(from), .integer(to)]) ?? false
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
            let inRange = "created >= \(from) AND created < \(to)"
            try HistoryScope.createScopeCharges(db, from: from, to: to)
            for table in ["transfers", "fees", "disputes", "balance"] {
                try db.execute("DROP TABLE IF EXISTS \(db.dialect.temporaryTable("scope_" + table))")
                try db.execute("CREATE TEMP TABLE scope_\(table) (id TEXT PRIMARY KEY)")
            }
            func fill(_ table: String, _ select: String) throws {
                try db.execute(
                    "INSERT INTO \(table) SELECT * FROM (\(select)) AS s WHERE TRUE ON CONFLICT DO NOTHING")
            }
            try fill(
                "scope_disputes",
                "SELECT id FROM disputes WHERE (\(inRange)) OR charge_id IN (SELECT id FROM scope_charges)")
            try fill(
                "scope_transfers",
                """
                SELECT id FROM transfers WHERE (\(inRange))
                    OR id IN (SELECT transfer_id FROM charges WHERE id IN (SELECT id FROM scope_charges))
                    OR dispute_id_metadata IN (SELECT id FROM scope_disputes)
                """)
            try fill(
                "scope_fees",
                """
                SELECT id FROM application_fees WHERE (\(inRange))
                    OR id IN (SELECT application_fee_id FROM charges WHERE id IN (SELECT id FROM scope_charges))
                """)
            let refundsInScope = "t.charge_id IN (SELECT id FROM scope_charges) OR (t.\(inRange))"
            let namedTransactions = HistoryScope.balanceTransactionsNamed(
                by: [
                    (.charge, "t.id IN (SELECT id FROM scope_charges)"),
                    (.transfer, "t.id IN (SELECT id FROM scope_transfers)"),
                    (.transferReversal, "t.transfer_id IN (SELECT id FROM scope_transfers)"),
                    (.applicationFee, "t.id IN (SELECT id FROM scope_fees)"),
                    (.feeRefund, "t.fee_id IN (SELECT id FROM scope_fees)"),
                    (.refund, refundsInScope),
                    (.dispute, "t.id IN (SELECT id FROM scope_disputes)"),
                ], dialect: db.dialect)
            try fill(
                "scope_balance",
                """
                SELECT id FROM balance_transactions WHERE \(inRange)
                UNION ALL \(namedTransactions)
                UNION ALL SELECT balance_transaction_id FROM payout_transactions
                    WHERE payout_id IN (SELECT id FROM payouts WHERE \(inRange))
                """)

            func load<Facts: StorableFacts>(_ type: Facts.Type, _ condition: String) throws -> [Facts] {
                try HistoryStore.fetchFacts(type, db: db, condition: condition, arguments: [])
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
                    RefundFacts.self, "charge_id IN (SELECT id FROM scope_charges) OR (\(inRange))"),
                disputes: try load(DisputeFacts.self, "id IN (SELECT id FROM scope_disputes)"),
                balanceTransactions: try load(BalanceTransactionFacts.self, "id IN (SELECT id FROM scope_balance)"),
                payouts: try load(PayoutFacts.self, inRange),
                payoutTransactions: try HistoryStore.payoutLinks(
                    db, "payout_id IN (SELECT id FROM payouts WHERE \(inRange))", []),
                missingObjects: try HistoryStore.missingObjects(db, from: from, to: to))
            for table in ["charges", "transfers", "fees", "disputes", "balance"] {
                try db.execute("DROP TABLE \(db.dialect.temporaryTable("scope_" + table))")
            }
            return input
        }
    }

    /// The payout links matching `condition`, by payout, then balance transaction.
    static func payoutLinks(
        _ db: SQLSession, _ condition: String, _ arguments: [SQLValue]
    ) throws -> [PayoutTransactionLink] {
        try db.all(
            """
            SELECT payout_id, balance_transaction_id FROM payout_transactions WHERE \(condition)
            ORDER BY payout_id, balance_transaction_id
            """, arguments
        ) {
            PayoutTransactionLink(payoutID: try $0.decode(atIndex: 0), balanceTransactionID: try $0.decode(atIndex: 1))
        }
    }

    /// The objects Stripe answered 404 for during the runs of ranges overlapping `[from, to)` and that the history
    /// still lacks (a later run may have found them).
    static func missingObjects(_ db: SQLSession, from: Int64, to: Int64) throws -> [(kind: ObjectKind, id: String)] {
        try db.all(
            """
            SELECT DISTINCT m.kind, m.object_id FROM missing_objects m JOIN runs r ON r.id = m.run_id
            WHERE r.range_from < ? AND r.range_to > ? ORDER BY m.kind, m.object_id
            """, [.integer(to), .integer(from)]
        ) { row in (kind: try row.decode(String.self, atIndex: 0), id: try row.decode(String.self, atIndex: 1)) }
        .compactMap { (kindName, id) -> (kind: ObjectKind, id: String)? in
            guard let kind = ObjectKind(rawValue: kindName) else { return nil }
            let table = kind.entry.table
            let present =
                try db.value(Bool.self, "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", [.text(id)]) ?? false
            return present ? nil : (kind: kind, id: id)
        }
    }
}
