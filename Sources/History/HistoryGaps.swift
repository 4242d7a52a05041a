import ReconCore

extension HistoryGaps {
    /// Records that an object referenced by another could not be found (404), so the reconciler reports it.
    public func recordMissing(
        kind: ObjectKind, id: String, referencedBy: String, requestID: String?, run runID: Int64
    ) async throws(HistoryError) {
        try await writeDatabase { db in
            try db.execute(
                """
                INSERT INTO missing_objects (run_id, kind, object_id, referenced_by, request_id)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """,
                [.integer(runID), .text(kind.rawValue), .text(id), .text(referencedBy), requestID.sqlValue])
        }
    }

    /// Records what a `connect_collection_transfer` balance transaction's expanded source said: the connected account
    /// Stripe collected for (`nil` when the source named none: counted with no account, docs/RULES.md), read in run
    /// `runID`. A later read replaces an earlier one.
    public func recordCollection(
        transactionID: String, sourceID: String?, account: String?, run runID: Int64
    ) async throws(HistoryError) {
        try await writeDatabase { db in
            try db.execute(
                """
                INSERT INTO collection_transfers (balance_transaction_id, source_id, account, run_id)
                VALUES (?, ?, ?, ?)
                ON CONFLICT (balance_transaction_id) DO UPDATE
                SET source_id = excluded.source_id, account = excluded.account, run_id = excluded.run_id
                """,
                [.text(transactionID), sourceID.sqlValue, account.sqlValue, .integer(runID)])
        }
    }

    /// Records what an account debit's expanded `source_transfer` said (``DebitSourceTransfer``: the transfer it was
    /// made with, `nil` when it had none), read in run `runID`. A later read replaces an earlier one.
    public func recordDebitSourceTransfer(
        chargeID: String, _ transfer: DebitSourceTransfer?, run runID: Int64
    ) async throws(HistoryError) {
        try await writeDatabase { db in
            try db.execute(
                """
                INSERT INTO debit_source_transfers (charge_id, transfer_id, transfer_group, metadata, run_id)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (charge_id) DO UPDATE
                SET transfer_id = excluded.transfer_id, transfer_group = excluded.transfer_group,
                    metadata = excluded.metadata, run_id = excluded.run_id
                """,
                [
                    .text(chargeID), transfer?.transferID.sqlValue ?? .null, transfer?.transferGroup.sqlValue ?? .null,
                    MetadataJSON.text(transfer?.metadata ?? [:]).sqlValue, .integer(runID),
                ])
        }
    }

    /// Records that the search for a won dispute's repayment was made in run `runID` (found or not).
    public func recordRepaymentSearch(disputeID: String, run runID: Int64) async throws(HistoryError) {
        try await writeDatabase { db in
            try db.execute(
                "INSERT INTO finished_searches (run_id, search) VALUES (?, ?) ON CONFLICT DO NOTHING",
                [.integer(runID), .text("repayment " + disputeID)])
        }
    }

    /// Records that the balance transactions of payout `payoutID` were listed to the end in run `runID`.
    public func recordPayoutListing(payoutID: String, run runID: Int64) async throws(HistoryError) {
        try await writeDatabase { db in
            try db.execute(
                "INSERT INTO finished_searches (run_id, search) VALUES (?, ?) ON CONFLICT DO NOTHING",
                [.integer(runID), .text(HistoryGaps.payoutListing(payoutID))])
        }
    }

    /// The `finished_searches` entry of a payout's `?payout=` list.
    static func payoutListing(_ payoutID: String) -> String { "payout_transactions " + payoutID }

    /// Records that the transfers of `group` were listed to the end in run `runID` (`?transfer_group=`).
    public func recordTransferGroupListing(_ group: String, run runID: Int64) async throws(HistoryError) {
        try await recordSearch(Self.transferGroupListingPrefix + group, run: runID)
    }

    /// Records that the transfers created from `to` (a range's end) up to now were listed in run `runID`: they hold
    /// the transfers every transfer group of that range made after it.
    public func recordTransfersListing(after to: Int64, run runID: Int64) async throws(HistoryError) {
        try await recordSearch(Self.transfersListing(after: to), run: runID)
    }

    private func recordSearch(_ search: String, run runID: Int64) async throws(HistoryError) {
        try await writeDatabase { db in
            try db.execute(
                "INSERT INTO finished_searches (run_id, search) VALUES (?, ?) ON CONFLICT DO NOTHING",
                [.integer(runID), .text(search)])
        }
    }

    /// The `finished_searches` entry of the window of every transfer created from `to` on.
    static func transfersListing(after to: Int64) -> String { "transfers_after \(to)" }
    static let transferGroupListingPrefix = "transfer_group "

    /// Transfers to `destination` created in `[from, to)` that the history holds: how dense a connected
    /// account's transfers are, to size the windows of a repayment search.
    public func transferCount(destination: String, from: Int64, to: Int64) async throws(HistoryError) -> Int {
        try await readDatabase { db in
            try db.value(
                Int.self, "SELECT COUNT(*) FROM transfers WHERE destination = ? AND created >= ? AND created < ?",
                [.text(destination), .integer(from), .integer(to)]) ?? 0
        }
    }

    /// Which of `disputeIDs` have a repayment transfer (`metadata[dispute_id]`) in the history.
    public func repaidDisputes(_ disputeIDs: [String]) async throws(HistoryError) -> Set<String> {
        try await readDatabase { db in
            let marks = Array(repeating: "?", count: disputeIDs.count).joined(separator: ",")
            let repaid = GraphColumns.repaymentDispute
            return Set(
                try db.values(
                    String.self, "SELECT DISTINCT \(repaid) FROM transfers WHERE \(repaid) IN (\(marks))",
                    disputeIDs.map(\.sqlValue)))
        }
    }

    /// What the history lacks of the range `[from, to)`, as the runs in `chain` have seen it, of what docs/RULES.md
    /// reads.
    ///
    /// Scope (docs/EXTRACTION.md): charges created in the range, and the charges of the range's refunds, disputes,
    /// transfers and application fees, with their PaymentIntents and transfers (the rules judge whether they are
    /// destination charges and what was recovered from the transfer), the transfers' reversals beyond the 10
    /// embedded; and for the charges created in the range what their platform fee and platform net read: the
    /// application fee and its refunds, refunds and disputes made after the range, and the balance transaction of
    /// each of those objects. Nothing about the older charges' balance transactions: no rule reads them.
    ///
    /// The automatic payouts created in the range that this chain has seen lack their balance transactions
    /// (`?payout=`) until this chain listed them; a payout Stripe is still reconciling (`reconciliation_status` not
    /// `completed`) lacks nothing, as its list is partial and no report reads it.
    ///
    /// `reversalsOfEarlierTransfers`: also the range's balance transactions of transfer reversals the history lacks
    /// (``RangeGaps/reversalTransactions``), asked for when money moved by hand can be judged (docs/RULES.md).
    ///
    /// The range's account debits that name nothing themselves under `debitLinkKeys` and whose transfer has not been
    /// read lack it (``RangeGaps/debitSourceTransfers``).
    public func inRange(
        from: Int64, to: Int64, chain: [Int64], reversalsOfEarlierTransfers: Bool = false,
        debitLinkKeys: [String] = ChargeFacts.defaultDebitLinkKeys
    ) async throws(HistoryError) -> RangeGaps {
        // A read: it runs beside the extraction's page writes instead of between them.
        try await readDatabase { db in
            let seen = "(" + chain.map(String.init).joined(separator: ",") + ")"
            let missing = "(SELECT object_id FROM missing_objects WHERE run_id IN \(seen))"
            // Late outcomes (docs/EXTRACTION.md): the charges of the look-back window whose outcome this chain's reads
            // found changed are judged too, so what the rules read of them is needed as of the range's charges.
            let lateCharges = Self.lateOutcomeIDs(.charge, seen: seen)
            // A refund that failed or a dispute that closed changed its charge too (`amount_refunded`): read again.
            let lateChildrensCharges = """
                SELECT \(GraphColumns.refundCharge) FROM refunds WHERE id IN (\(Self.lateOutcomeIDs(.refund, seen: seen)))
                UNION SELECT \(GraphColumns.disputeCharge) FROM disputes
                    WHERE id IN (\(Self.lateOutcomeIDs(.dispute, seen: seen)))
                """
            let scopeCharges = try db.values(
                String.self,
                """
                \(HistoryScope.charges(from: from, to: to)) UNION \(lateCharges) UNION \(lateChildrensCharges)
                ORDER BY 1
                """)
            let rangeCharges = "SELECT id FROM charges WHERE created >= \(from) AND created < \(to)"
            // The transfer groups of the range's charges and of the late ones, and of the older charges of the range's
            // refunds and disputes (refund recovery and unreversed disputes read their groups' transfers and
            // reversals, not their balance transactions: no rule reads those). Worked out once here, as the scope's
            // charges are, and read by the queries below as tables bound from their ids, instead of again in every
            // query and every part of it.
            let groups = try Self.transferGroups(
                charges: "\(rangeCharges) UNION \(lateCharges) UNION \(lateChildrensCharges)", seen: seen, db: db)
            let olderGroups = try Self.transferGroups(
                charges: """
                    SELECT id FROM charges WHERE created < \(from) AND id IN (
                        SELECT \(GraphColumns.refundCharge) FROM refunds WHERE created >= \(from) AND created < \(to)
                        UNION SELECT \(GraphColumns.disputeCharge) FROM disputes
                            WHERE created >= \(from) AND created < \(to))
                    """, seen: seen, db: db)
            let idTables = [
                ("scope_charges", scopeCharges), ("group_names", groups.names), ("group_transfers", groups.transfers),
                ("older_group_names", olderGroups.names), ("older_group_transfers", olderGroups.transfers),
            ]
            let bound = idTables.map { name, _ in "\(name)(id) AS (SELECT j.value FROM \(db.dialect.idList(as: "j")))" }
            let boundIDs = idTables.map { _, ids in SQLValue.text(IDList.json(ids)) }

            /// The rows of `sql`, each made a `T` by `make`, in order; `sql` may read the tables of ids (the scope's
            /// charges, the groups') and the expressions in `with`.
            func rows<T>(_ sql: String, with expressions: [String] = [], _ make: (SQLRow) throws -> T) throws -> [T] {
                let prefix = "WITH " + (bound + expressions).joined(separator: ", ")
                return try db.all(prefix + " " + sql + " ORDER BY 1", boundIDs, make)
            }
            /// The ids `sql` selects, in order.
            func ids(_ sql: String, with expressions: [String] = []) throws -> [String] {
                try rows(sql, with: expressions) { try String(row: $0, at: 0) }
            }
            /// Ids in `column` of `sourceSQL` that `table` has not seen in this chain.
            func unseen(_ table: String, _ sourceSQL: String) throws -> [String] {
                try ids(
                    """
                    SELECT DISTINCT ref FROM refs
                    WHERE ref IS NOT NULL
                      AND ref NOT IN (SELECT id FROM \(table) WHERE last_seen_run IN \(seen))
                      AND ref NOT IN \(missing)
                    """, with: ["refs(ref) AS (\(sourceSQL))"])
            }

            let chargeTransfer = GraphColumns.chargeTransfer
            let chargeFee = GraphColumns.chargeFee
            // The transfers of the range's charges: a destination charge's own, and a separately transferred
            // charge's group's, whenever made (their balance transactions and reversals are its platform net).
            let rangeTransfers = """
                SELECT \(chargeTransfer) FROM charges WHERE created >= \(from) AND created < \(to)
                UNION SELECT id FROM group_transfers
                """
            let rangeFees = "SELECT \(chargeFee) FROM charges WHERE created >= \(from) AND created < \(to)"
            var gaps = RangeGaps()
            gaps.charges = try unseen("charges", "SELECT id FROM scope_charges")
            gaps.paymentIntents = try unseen(
                "payment_intents", "SELECT payment_intent_id FROM charges WHERE id IN (SELECT id FROM scope_charges)")
            gaps.transfers = try unseen(
                "transfers", "SELECT \(chargeTransfer) FROM charges WHERE id IN (SELECT id FROM scope_charges)")
            gaps.applicationFees = try unseen(
                "application_fees",
                "\(rangeFees) UNION SELECT \(chargeFee) FROM charges WHERE id IN (\(lateCharges))")
            // A late charge's own balance transaction is needed only when the history lacks it: its amounts never
            // change, and most were stored by the range that listed the charge (reading each again cost a request
            // a charge).
            gaps.balanceTransactionsOfLateOutcomes = try ids(
                """
                SELECT DISTINCT c.balance_transaction_id FROM charges c
                WHERE c.id IN (\(lateCharges)) AND c.balance_transaction_id IS NOT NULL
                  AND c.balance_transaction_id NOT IN (SELECT id FROM balance_transactions)
                  AND c.balance_transaction_id NOT IN \(missing)
                """)

            let scopeTransfers = """
                SELECT id FROM transfers WHERE (created >= \(from) AND created < \(to))
                    OR id IN (SELECT \(chargeTransfer) FROM charges WHERE id IN (SELECT id FROM scope_charges))
                UNION SELECT id FROM group_transfers UNION SELECT id FROM older_group_transfers
                """
            gaps.transferReversalLists = try ids(
                """
                SELECT t.id FROM transfers t WHERE t.id IN (\(scopeTransfers)) AND t.last_seen_run IN \(seen)
                  AND t.amount_reversed > (
                    SELECT COALESCE(SUM(amount), 0) FROM transfer_reversals r
                    WHERE r.\(GraphColumns.reversalTransfer) = t.id)
                """)
            gaps.collectionTransactions = try ids(
                """
                SELECT b.id FROM balance_transactions b
                WHERE b.created >= \(from) AND b.created < \(to)
                  AND b.type = '\(BalanceTransactionType.connectCollectionTransfer.rawValue)'
                  AND b.id NOT IN (SELECT balance_transaction_id FROM collection_transfers)
                  AND b.id NOT IN \(missing)
                """)
            gaps.debitSourceTransfers = try Self.unreadDebitSourceTransfers(
                db, created: from..<to, missing: missing, keys: debitLinkKeys)
            if reversalsOfEarlierTransfers {
                gaps.reversalTransactions = try ids(
                    """
                    SELECT b.id FROM balance_transactions b
                    WHERE b.created >= \(from) AND b.created < \(to)
                      AND b.type = '\(BalanceTransactionType.transferRefund.rawValue)' AND b.source_id IS NOT NULL
                      AND b.source_id NOT IN (SELECT id FROM \(ObjectKind.transferReversal.entry.table))
                      AND b.id NOT IN \(missing) AND b.source_id NOT IN \(missing)
                    """)
            }
            gaps.feeRefundLists = try ids(
                """
                SELECT f.id FROM application_fees f WHERE f.id IN (\(rangeFees)) AND f.last_seen_run IN \(seen)
                  AND f.amount_refunded > (SELECT COALESCE(SUM(amount), 0) FROM fee_refunds r
                                           WHERE r.\(GraphColumns.feeRefundFee) = f.id)
                """)
            // A refund counts in its charge's amount_refunded as `RefundFacts.movedMoney` says.
            let refundMovedMoney =
                "COALESCE(r.status, 'succeeded') NOT IN \(SQLList.of(RefundStatus.movedNoMoney.map(\.rawValue)))"
            gaps.chargeRefundLists = try ids(
                """
                SELECT c.id FROM charges c WHERE c.id IN (\(rangeCharges)) AND c.last_seen_run IN \(seen)
                  AND c.amount_refunded > (SELECT COALESCE(SUM(amount), 0) FROM refunds r
                                           WHERE r.\(GraphColumns.refundCharge) = c.id AND \(refundMovedMoney))
                """)
            gaps.chargeDisputeLists = try ids(
                """
                SELECT c.id FROM charges c WHERE c.id IN (SELECT id FROM scope_charges) AND c.last_seen_run IN \(seen)
                  AND c.disputed
                  AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.\(GraphColumns.disputeCharge) = c.id)
                """)
            // Platform net (docs/RULES.md) of the range's charges: the balance transactions of the charge, its refunds
            // (and a failed refund's `refund_failure` one), its transfer and the transfer's reversals, its fee and the
            // fee's refunds, and its disputes; those of objects made from the range's end on apart (the range's own
            // balance transactions list does not hold them). One query for both.
            let named = HistoryScope.balanceTransactionsNamed(
                by: [
                    (.charge, "t.id IN (\(rangeCharges))"),
                    (.refund, "t.\(GraphColumns.refundCharge) IN (\(rangeCharges))"),
                    (.transfer, "t.id IN (\(rangeTransfers))"),
                    (.transferReversal, "t.\(GraphColumns.reversalTransfer) IN (\(rangeTransfers))"),
                    (.applicationFee, "t.id IN (\(rangeFees))"),
                    (.feeRefund, "t.\(GraphColumns.feeRefundFee) IN (\(rangeFees))"),
                    (.dispute, "t.\(GraphColumns.disputeCharge) IN (\(rangeCharges))"),
                ], dialect: db.dialect)
            let transactions = try rows(
                """
                SELECT DISTINCT ref, CASE WHEN owner_created < \(to) THEN 0 ELSE 1 END AS later FROM refs
                WHERE ref IS NOT NULL
                  AND ref NOT IN (SELECT id FROM balance_transactions WHERE last_seen_run IN \(seen))
                  AND ref NOT IN \(missing)
                """, with: ["refs(ref, owner_created) AS (\(named))"]
            ) { (id: try String(row: $0, at: 0), later: try Int64(row: $0, at: 1) == 1) }
            gaps.balanceTransactionsOfRangeObjects = transactions.filter { !$0.later }.map(\.id)
            gaps.balanceTransactionsOfLaterObjects = transactions.filter(\.later).map(\.id)
            // Transfer groups of the range's separately transferred charges and of the late ones: a platform makes a
            // group's transfers hours or days after the charge, so those made after the range are listed, by group
            // or all at once (`transfers_after`); the older charges' groups are listed whole.
            let unlisted = """
                NOT EXISTS (SELECT 1 FROM finished_searches f WHERE f.run_id IN \(seen)
                            AND f.search = '\(Self.transferGroupListingPrefix)' || g.id)
                """
            gaps.transferGroupLists = try ids(
                """
                SELECT DISTINCT g.id FROM group_names g WHERE \(unlisted)
                  AND NOT EXISTS (SELECT 1 FROM finished_searches f WHERE f.run_id IN \(seen)
                                  AND f.search = '\(Self.transfersListing(after: to))')
                """)
            gaps.olderTransferGroupLists = try ids(
                "SELECT DISTINCT g.id FROM older_group_names g WHERE \(unlisted)")
            gaps.payoutTransactionLists = try Self.unlistedPayouts(db, from: from, to: to, seen: seen)
            // Won disputes of the range (the rules judge those) the platform recovered (`recoveryReversals`: the rule's
            // own definition) with no repayment transfer seen in this chain: the repayment may postdate the range,
            // and only its metadata[dispute_id] links it, so search the destination's transfers after it (the
            // range's own transfers were listed).
            gaps.unrepaidDisputes = try Self.unrepaidDisputes(db, from: from, to: to, seen: seen)
            return gaps
        }
    }

    /// The transfer groups (docs/RULES.md, "Separately transferred charges"; RULES.md) of the charges `charges` selects
    /// that this chain (`seen`) has seen: `names`, each such charge's group (`transfer_group`), its own
    /// `transfer_group`, else its PaymentIntent's; `transfers`, the ids of their groups' transfers and of the
    /// transfers naming one of those charges as `source_transaction`.
    ///
    /// Only a succeeded charge with something captured that is neither an account debit nor a destination charge has
    /// a group (``ChargeFacts/canBelongToTransferGroup(intent:)``): no `stripe_account` payment method, no
    /// `transfer_data.destination`, no `transfer`, and a PaymentIntent (once stored) without
    /// `transfer_data.destination` (a skipped transfer's). Stripe labels a destination charge's PaymentIntent
    /// `group_pi_…` itself: such a label is no group, and a platform without separate charges has none (one query
    /// that finds no such charge).
    static func transferGroups(
        charges: String, seen: String, db: SQLSession
    ) throws -> (names: [String], transfers: [String]) {
        let separate = try db.values(
            String.self,
            """
            SELECT c.id FROM charges c
            WHERE c.id IN (\(charges)) AND c.last_seen_run IN \(seen)
              AND c.status = '\(ChargeStatus.succeeded.rawValue)' AND c.amount_captured > 0
              AND \(HistoryObjects.noAccountPaid("c"))
              AND c.transfer_destination IS NULL AND c.\(GraphColumns.chargeTransfer) IS NULL
              AND (c.\(GraphColumns.chargeIntent) IS NULL
                   OR EXISTS (SELECT 1 FROM payment_intents p WHERE p.id = c.\(GraphColumns.chargeIntent)
                              AND p.transfer_destination IS NULL))
            ORDER BY 1
            """)
        guard !separate.isEmpty else { return ([], []) }
        let separateIDs = SQLValue.text(IDList.json(separate))
        let names = try db.values(
            String.self,
            """
            SELECT DISTINCT n.transfer_group FROM (
                SELECT COALESCE(c.transfer_group, (SELECT p.transfer_group FROM payment_intents p
                                                   WHERE p.id = c.\(GraphColumns.chargeIntent))) AS transfer_group
                FROM charges c WHERE c.id IN \(db.dialect.idSet)) n
            WHERE n.transfer_group IS NOT NULL ORDER BY 1
            """, [separateIDs])
        let transfers = try db.values(
            String.self,
            """
            SELECT id FROM transfers WHERE transfer_group IN \(db.dialect.idSet)
            UNION SELECT id FROM transfers WHERE \(GraphColumns.transferSource) IN \(db.dialect.idSet)
            ORDER BY 1
            """, [.text(IDList.json(names)), separateIDs])
        return (names, transfers)
    }

    /// The won disputes of `[from, to)` and of the late outcomes of the runs `seen` whose funds the platform
    /// recovered from the connected account, with no repayment seen and no search for one made.
    private static func unrepaidDisputes(
        _ db: SQLSession, from: Int64, to: Int64, seen: String
    ) throws -> [UnrepaidDispute] {
        let candidates = try db.all(
            """
            SELECT d.id, t.id, t.destination FROM disputes d
            JOIN charges c ON c.id = d.\(GraphColumns.disputeCharge)
            JOIN transfers t ON t.id = c.\(GraphColumns.chargeTransfer)
            WHERE ((d.created >= \(from) AND d.created < \(to)) OR d.id IN (\(lateOutcomeIDs(.dispute, seen: seen))))
              AND d.status = '\(DisputeStatus.won.rawValue)' AND t.destination IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM transfers p WHERE p.\(GraphColumns.repaymentDispute) = d.id
                              AND p.last_seen_run IN \(seen))
              AND NOT EXISTS (SELECT 1 FROM finished_searches f WHERE f.run_id IN \(seen)
                              AND f.search = 'repayment ' || d.id)
            ORDER BY d.id
            """
        ) { row -> (dispute: String, transfer: String, destination: String) in
            (try row.decode(atIndex: 0), try row.decode(atIndex: 1), try row.decode(atIndex: 2))
        }
        return try candidates.compactMap { candidate in
            let disputes = try HistoryObjects.fetchFacts(
                DisputeFacts.self, db: db,
                condition:
                    "\(GraphColumns.disputeCharge) = (SELECT \(GraphColumns.disputeCharge) FROM disputes WHERE id = ?)",
                arguments: [.text(candidate.dispute)])
            let reversals = try HistoryObjects.fetchFacts(
                TransferReversalFacts.self, db: db, condition: "\(GraphColumns.reversalTransfer) = ?",
                arguments: [.text(candidate.transfer)])
            guard let dispute = disputes.first(where: { $0.id == candidate.dispute }),
                !dispute.recoveryReversals(of: reversals, chargeDisputes: disputes).isEmpty
            else { return nil }
            return UnrepaidDispute(disputeID: candidate.dispute, destination: candidate.destination)
        }
    }

    /// The automatic payouts of `[from, to)` that Stripe has completed and whose balance transactions (`?payout=`)
    /// the runs in `chain` have not listed to the end: the part of ``gaps(from:to:chain:)`` the payouts list alone
    /// decides, asked as soon as that list has ended.
    public func unlistedPayouts(from: Int64, to: Int64, chain: [Int64]) async throws(HistoryError) -> [String] {
        let seen = "(" + chain.map(String.init).joined(separator: ",") + ")"
        return try await readDatabase { db in try Self.unlistedPayouts(db, from: from, to: to, seen: seen) }
    }

    private static func unlistedPayouts(_ db: SQLSession, from: Int64, to: Int64, seen: String) throws -> [String] {
        try db.values(
            String.self,
            """
            SELECT p.id FROM payouts p
            WHERE ((p.created >= \(from) AND p.created < \(to)) OR p.id IN (\(lateOutcomeIDs(.payout, seen: seen))))
              AND p.automatic
              AND p.last_seen_run IN \(seen) AND COALESCE(p.reconciliation_status, 'completed') = 'completed'
              AND NOT EXISTS (SELECT 1 FROM finished_searches f WHERE f.run_id IN \(seen)
                              AND f.search = 'payout_transactions ' || p.id)
            ORDER BY 1
            """)
    }

    /// The `SELECT` of the objects of `kind` whose late outcome the runs `seen` (`(1,2)`) read and found changed.
    static func lateOutcomeIDs(_ kind: LateOutcomeKind, seen: String) -> String {
        "SELECT object_id FROM late_reads WHERE run_id IN \(seen) AND changed AND kind = '\(kind.rawValue)'"
    }
}
