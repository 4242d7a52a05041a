import ReconCore

/// An object of the look-back window that a run reads again.
public struct LateRead: Sendable, Hashable {
    public var id: String
    /// When Stripe created it, Unix seconds.
    public var created: Int64

    public init(id: String, created: Int64) {
        self.id = id
        self.created = created
    }
}

/// What a run reads again of its look-back window (docs/EXTRACTION.md, "Late outcomes"), and what a list of that window
/// would cost instead, so the extraction can take the cheaper way.
public struct LateReadPlan: Sendable {
    /// The objects to read again, per kind, oldest first.
    public var objects: [LateOutcomeKind: [LateRead]] = [:]
    /// Per kind: how many objects the history holds from the oldest object to read again up to the window's end,
    /// which a list of that `created` window would page through.
    public var listed: [LateOutcomeKind: Int] = [:]

    public init() {}

    /// Whether nothing is to be read again.
    public var isEmpty: Bool { objects.values.allSatisfy(\.isEmpty) }
}

/// Which late outcomes a reconcile judges: those of its look-back window that a read found changed and that no
/// completed run has judged yet, plus those of `source` (the run that read Stripe for this very range, so that an
/// offline `reconcile` of a nightly range writes the report the nightly run wrote).
public struct LateOutcomeSelection: Sendable, Hashable {
    /// `[from − lookback, from)`, Unix seconds.
    public var window: Range<Int64>
    /// The run that reads Stripe for this range: the run itself (`run`), or the latest completed `run` or
    /// `extract` of the same range (`reconcile`); `nil` when there is none.
    public var source: Int64?

    public init(window: Range<Int64>, source: Int64?) {
        self.window = window
        self.source = source
    }

    /// The condition on `late_reads` (as `l`) of a late outcome this selection judges.
    var condition: String {
        """
        l.changed AND l.created >= \(window.lowerBound) AND l.created < \(window.upperBound)
        AND (l.run_id = \(source ?? -1) OR l.judged_run IS NULL
             OR l.judged_run IN (SELECT id FROM runs WHERE status = 'failed'))
        """
    }
}

/// An earlier range whose report is out of date because an outcome of one of its objects changed since.
public struct OutOfDateRange: Sendable, Hashable, Codable {
    /// Unix seconds, `[from, to)`.
    public var from: Int64
    public var to: Int64
    /// The time zone the range was reported in.
    public var timeZone: String

    public init(from: Int64, to: Int64, timeZone: String) {
        self.from = from
        self.to = to
        self.timeZone = timeZone
    }
}

extension HistoryGaps {
    /// Records which objects of `window` (the look-back window before the range) run `runID` reads again, and with
    /// which state, and returns them: every object the history holds in a state that can still change
    /// (``LateOutcomeKind/notFinal``), and those that an interrupted or failed run read again without a completed
    /// run after it (their state before that run is kept, so the change it saw is not lost). One transaction.
    public func planLateReads(
        run runID: Int64, window: Range<Int64>, now: Int64, grace: Int64
    ) async throws(HistoryError) -> LateReadPlan {
        try await writeDatabase { db in
            try db.execute(
                """
                INSERT INTO late_reads (run_id, kind, object_id, created, state_before)
                SELECT CAST(? AS BIGINT), l.kind, l.object_id, l.created, l.state_before FROM late_reads l
                WHERE l.created >= ? AND l.created < ?
                  AND l.run_id IN (SELECT id FROM runs WHERE status = 'failed' AND command IN ('run', 'extract')
                                   AND id > COALESCE((SELECT MAX(id) FROM runs WHERE status = 'completed'
                                                      AND command IN ('run', 'extract')), 0))
                  AND (l.judged_run IS NULL OR l.judged_run IN (SELECT id FROM runs WHERE status = 'failed'))
                ORDER BY l.run_id
                ON CONFLICT DO NOTHING
                """, [.integer(runID), .integer(window.lowerBound), .integer(window.upperBound)])
            var plan = LateReadPlan()
            for kind in LateOutcomeKind.allCases {
                try db.execute(
                    """
                    INSERT INTO late_reads (run_id, kind, object_id, created, state_before)
                    SELECT CAST(? AS BIGINT), '\(kind.rawValue)', t.id, t.created, \(kind.state(youngWhen: LateOutcomeKind.youngAtLastRead))
                    FROM \(kind.table) AS t
                    WHERE t.created >= ? AND t.created < ? AND \(kind.notFinal)
                    ON CONFLICT DO NOTHING
                    """,
                    [.integer(runID)] + kind.stateArguments(young: .integer(grace))
                        + [.integer(window.lowerBound), .integer(window.upperBound)]
                        + kind.notFinalArguments(now: now, grace: grace))
                let reads = try db.all(
                    """
                    SELECT object_id, created FROM late_reads WHERE run_id = ? AND kind = ?
                    ORDER BY created, object_id
                    """, [.integer(runID), .text(kind.rawValue)]
                ) { LateRead(id: try $0.decode(atIndex: 0), created: try $0.decode(atIndex: 1)) }
                guard let oldest = reads.first else { continue }
                plan.objects[kind] = reads
                plan.listed[kind] =
                    try db.value(
                        Int.self, "SELECT COUNT(*) FROM \(kind.table) WHERE created >= ? AND created < ?",
                        [.integer(oldest.created), .integer(window.upperBound)]) ?? 0
            }
            return plan
        }
    }

    /// Compares the state of each object run `runID` read again with its state before the read, and records which
    /// changed (a charge inside the grace period at its last read changed once it is no longer young at `now`).
    /// Returns how many changed.
    @discardableResult
    public func recordLateOutcomes(run runID: Int64, now: Int64, grace: Int64) async throws(HistoryError) -> Int {
        try await writeDatabase { db in
            for kind in LateOutcomeKind.allCases {
                try db.execute(
                    """
                    UPDATE late_reads SET changed = (state_before IS DISTINCT FROM
                        (SELECT \(kind.state(youngWhen: "t.created > CAST(? AS BIGINT)")) FROM \(kind.table) AS t
                         WHERE t.id = late_reads.object_id))
                    WHERE run_id = ? AND kind = ?
                    """,
                    kind.stateArguments(young: .integer(now - grace)) + [.integer(runID), .text(kind.rawValue)])
            }
            return try db.value(
                Int.self, "SELECT COUNT(*) FROM late_reads WHERE run_id = ? AND changed", [.integer(runID)]) ?? 0
        }
    }

    /// The late outcomes `selection` judges, by kind.
    public func lateOutcomes(_ selection: LateOutcomeSelection) throws(HistoryError) -> JudgedObjects {
        try read { db in try Self.lateOutcomes(db, selection) }
    }

    static func lateOutcomes(_ db: SQLSession, _ selection: LateOutcomeSelection) throws -> JudgedObjects {
        var outcomes = JudgedObjects()
        try db.forEachRow(
            "SELECT DISTINCT l.kind, l.object_id FROM late_reads l WHERE \(selection.condition)"
        ) { row in
            guard let kind = LateOutcomeKind(rawValue: try row.decode(atIndex: 0))?.objectKind else { return }
            outcomes[kind].insert(try row.decode(atIndex: 1))
        }
        return outcomes
    }

    /// Records that run `runID` judged the late outcomes of `selection` (with its findings, in the same
    /// transaction): no later run judges them again, unless `runID` fails.
    static func markJudged(_ db: SQLSession, _ selection: LateOutcomeSelection, run runID: Int64) throws {
        try db.execute(
            """
            UPDATE late_reads SET judged_run = ?
            WHERE changed AND object_id IN (SELECT l.object_id FROM late_reads l WHERE \(selection.condition))
              AND (judged_run IS NULL OR judged_run IN (SELECT id FROM runs WHERE status = 'failed'))
            """, [.integer(runID)])
    }

}

extension HistoryGaps {
    /// The charges created in `window` that are not final yet (a status ``LateOutcomePolicy`` does not call final:
    /// `pending`), per currency: the Summary's `pending_charges` and `pending_amount`.
    static func pendingCharges(_ db: SQLSession, window: Range<Int64>) throws -> [PendingChargeTotal] {
        let final = SQLList.of(LateOutcomePolicy.finalChargeStatuses.map(\.rawValue))
        return try db.all(
            """
            SELECT currency, COUNT(*), SUM(amount) FROM charges
            WHERE created >= ? AND created < ? AND status NOT IN \(final)
            GROUP BY currency ORDER BY currency
            """, [.integer(window.lowerBound), .integer(window.upperBound)]
        ) { row in
            PendingChargeTotal(
                currency: try FactsColumn.currency(row, 0), count: try row.decode(atIndex: 1),
                amount: try row.decode(atIndex: 2))
        }
    }
}

extension HistoryRuns {
    /// The run whose reads of Stripe a reconcile of `[from, to)` by run `runID` takes its late outcomes from: `runID`
    /// itself when it read Stripe, else the latest completed `run` or `extract` of exactly that range.
    public func lateOutcomeSource(from: Int64, to: Int64, run runID: Int64) async throws(HistoryError) -> Int64? {
        try await readDatabase { db in
            try db.value(
                Int64.self,
                """
                SELECT MAX(id) FROM runs WHERE range_from = ? AND range_to = ? AND command IN ('run', 'extract')
                  AND (status = 'completed' OR id = ?)
                """, [.integer(from), .integer(to), .integer(runID)])
        }
    }

    /// The ranges of earlier completed reports (`run`, `reconcile`) that hold an object whose late outcome
    /// `selection` judges, made before the read that found the change: they are out of date until re-run.
    public func outOfDateRanges(
        _ selection: LateOutcomeSelection, run runID: Int64
    ) async throws(HistoryError) -> [OutOfDateRange] {
        try await readDatabase { db in
            try db.all(
                """
                SELECT DISTINCT r.range_from, r.range_to, r.time_zone FROM runs r
                WHERE r.status = 'completed' AND r.command IN ('run', 'reconcile') AND r.id <> ?
                  AND EXISTS (SELECT 1 FROM late_reads l WHERE \(selection.condition)
                              AND l.created >= r.range_from AND l.created < r.range_to AND r.id < l.run_id)
                ORDER BY r.range_from, r.range_to, r.time_zone
                """, [.integer(runID)]
            ) {
                OutOfDateRange(
                    from: try $0.decode(atIndex: 0), to: try $0.decode(atIndex: 1), timeZone: try $0.decode(atIndex: 2))
            }
        }
    }
}
