import ReconCore

/// The books close (docs/RULES.md): the snapshots of Stripe's balance each run read, which balance transactions the
/// history holds around them, and the sums that carry a snapshot to a moment of a range.
public struct HistoryBalance: HistoryNoun {
    let access: HistoryAccess

    /// Keeps run `runID`'s snapshot of Stripe's balance (`raw`: Stripe's JSON), and that the run listed every balance
    /// transaction created in `covered` (and every automatic payout arriving in it): what lets a later range be
    /// carried to it. Written once the run's extraction is complete; a run read again replaces its own.
    public func record(
        _ snapshot: BalanceSnapshot, raw: String, run runID: Int64, covered: Range<Int64>
    ) async throws(HistoryError) {
        try await writeDatabase { db in
            try db.execute("DELETE FROM balance_snapshot_amounts WHERE run_id = ?", [.integer(runID)])
            try db.execute("DELETE FROM balance_snapshots WHERE run_id = ?", [.integer(runID)])
            try db.execute(
                """
                INSERT INTO balance_snapshots (run_id, taken_at, covered_from, covered_to, reported_types, raw)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(runID), .integer(snapshot.takenAt), .integer(covered.lowerBound),
                    .integer(covered.upperBound),
                    .text(snapshot.reportedTypes.map(\.rawValue).sorted().joined(separator: ",")), .text(raw),
                ])
            for (key, amount) in snapshot.amounts.sorted(by: { $0.key < $1.key }) {
                try db.execute(
                    "INSERT INTO balance_snapshot_amounts (run_id, currency, balance_type, amount) VALUES (?, ?, ?, ?)",
                    [
                        .integer(runID), .text(key.currency.rawValue), .text(key.balanceType.rawValue),
                        .integer(amount),
                    ])
            }
        }
    }

    /// Whether the history already holds what carries some snapshot back to `from` through `[from, to)` (a snapshot
    /// at or after `to`, and every balance transaction and payout arrival from `from` to it): then a run of the range
    /// needs to list nothing after it.
    public func canAnchor(from: Int64, to: Int64) async throws(HistoryError) -> Bool {
        try await readDatabase { db in
            let stored = try Self.snapshots(db)
            let coverage = stored.map(\.covered)
            return stored.contains { $0.snapshot.end >= to && Self.covers(from..<$0.snapshot.end, coverage) }
        }
    }

    /// The snapshots the history holds, oldest first.
    public func snapshots() async throws(HistoryError) -> [BalanceSnapshot] {
        try await readDatabase { db in try Self.snapshots(db).map(\.snapshot) }
    }
}

/// A snapshot as the history keeps it: with the run that read it and the span that run listed.
struct StoredBalanceSnapshot: Sendable {
    var runID: Int64
    var snapshot: BalanceSnapshot
    /// The balance transactions created in it (and the automatic payouts arriving in it) were all listed.
    var covered: Range<Int64>
}

extension HistoryBalance {
    /// Every stored snapshot, oldest first.
    static func snapshots(_ db: SQLSession) throws -> [StoredBalanceSnapshot] {
        var amounts: [Int64: [BalanceKey: Int64]] = [:]
        try db.forEachRow("SELECT run_id, currency, balance_type, amount FROM balance_snapshot_amounts") { row in
            let key = BalanceKey(currency: try FactsColumn.currency(row, 1), balanceType: try row.decode(atIndex: 2))
            amounts[try row.decode(Int64.self, atIndex: 0), default: [:]][key] = try row.decode(atIndex: 3)
        }
        return try db.all(
            """
            SELECT run_id, taken_at, covered_from, covered_to, reported_types FROM balance_snapshots
            ORDER BY taken_at, run_id
            """
        ) { row in
            let runID: Int64 = try row.decode(atIndex: 0)
            let types: String = try row.decode(atIndex: 4)
            let coveredFrom: Int64 = try row.decode(atIndex: 2)
            let coveredTo: Int64 = try row.decode(atIndex: 3)
            return StoredBalanceSnapshot(
                runID: runID,
                snapshot: BalanceSnapshot(
                    takenAt: try row.decode(atIndex: 1), amounts: amounts[runID] ?? [:],
                    reportedTypes: Set(types.split(separator: ",").map { BalanceType(rawValue: String($0)) })),
                covered: coveredFrom..<max(coveredFrom, coveredTo))
        }
    }

    /// Whether `span` lies inside the union of `coverage` (an empty span always does).
    static func covers(_ span: Range<Int64>, _ coverage: [Range<Int64>]) -> Bool {
        var reached = span.lowerBound
        for interval in coverage.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if reached >= span.upperBound { return true }
            if interval.lowerBound > reached { return false }
            reached = max(reached, interval.upperBound)
        }
        return reached >= span.upperBound
    }

    /// The nearest snapshot at or after `to` whose way back to `to` the history holds.
    static func endingSnapshot(to: Int64, among stored: [StoredBalanceSnapshot]) -> StoredBalanceSnapshot? {
        let coverage = stored.map(\.covered)
        return stored.first { $0.snapshot.end >= to && covers(to..<$0.snapshot.end, coverage) }
    }

    /// The snapshot older than `ending` nearest `from` whose way to `from` the history holds.
    static func earlierSnapshot(
        from: Int64, before ending: StoredBalanceSnapshot?, among stored: [StoredBalanceSnapshot]
    ) -> StoredBalanceSnapshot? {
        let coverage = stored.map(\.covered)
        return
            stored
            .filter { candidate in
                guard let ending else { return true }
                return (candidate.snapshot.takenAt, candidate.runID) < (ending.snapshot.takenAt, ending.runID)
            }
            .filter {
                covers(min(from, $0.snapshot.end)..<max(from, $0.snapshot.end), coverage)
            }
            .min { ($0.snapshot.end - from).magnitude < ($1.snapshot.end - from).magnitude }
    }

    /// What the roll-forward of `[from, to)` needs (see ``BalanceInputs``); `nil` when the history holds no
    /// snapshot and the range no balance transaction. `rangeGroups`: the range's balance transactions already added
    /// up (``RangeTransactionSums``), when they were.
    static func inputs(
        _ db: SQLSession, from: Int64, to: Int64, rangeGroups: [RangeTransactionSums.Group]? = nil
    ) throws -> BalanceInputs? {
        let stored = try snapshots(db)
        let (dated, overflowed) = try datedNet(db, from..<to, rangeGroups: rangeGroups)
        let ending = endingSnapshot(to: to, among: stored)
        let earlier = earlierSnapshot(from: from, before: ending, among: stored)
        guard ending != nil || !dated.isEmpty || !overflowed.isEmpty else { return nil }
        return BalanceInputs(
            dated: dated, overflowed: overflowed, ending: try ending.map { try anchor($0.snapshot, at: to, db) },
            earlier: try earlier.map { try anchor($0.snapshot, at: from, db) },
            stripeReports: try stripeReports(db, from: from, to: to))
    }

    /// `snapshot` carried to `moment` through the balance transactions the history holds.
    static func anchor(_ snapshot: BalanceSnapshot, at moment: Int64, _ db: SQLSession) throws -> BalanceAnchor {
        let end = snapshot.end
        var between: [BalanceKey: Int64] = [:]
        let span = min(moment, end)..<max(moment, end)
        let (sums, overflowed) = try datedNet(db, span)
        for (key, categories) in sums {
            let total = try checkedSum(categories.values, key)
            between[key] = moment <= end ? total : -total
        }
        return BalanceAnchor(
            snapshot: snapshot, moment: moment, inTransit: try inTransit(db, at: end), datedBetween: between,
            overflowed: overflowed)
    }

    /// Σ `net` per balance and reporting category of the balance transactions dated in `span`: at their `created`,
    /// except an automatic payout's own `payout` transaction, dated at its `available_on` (the payout's arrival
    /// date, when an older history lacks it), as Stripe's Balance report dates them. Added up by the database; when a
    /// sum does not fit in 64 bits there (corrupt amounts), the transactions are added here one by one and a balance
    /// whose sum does not fit is left out of the answer and named in `overflowed`.
    ///
    /// `rangeGroups`, when given, are `span`'s balance transactions already added up (``RangeTransactionSums``): the
    /// ones dated at their creation are taken from them instead of a second scan.
    static func datedNet(
        _ db: SQLSession, _ span: Range<Int64>, rangeGroups: [RangeTransactionSums.Group]? = nil
    ) throws -> (sums: [BalanceKey: [ReportingCategory: Int64]], overflowed: Set<BalanceKey>) {
        guard !span.isEmpty else { return ([:], []) }
        let bounds: [SQLValue] = [.integer(span.lowerBound), .integer(span.upperBound)]
        let datedAtCreation = """
            FROM balance_transactions b
            WHERE b.created >= ? AND b.created < ? AND NOT (\(isDatedAtArrival("b")))
            """
        let datedAtArrival = """
            FROM payouts p JOIN balance_transactions b ON b.id = p.balance_transaction_id
            WHERE p.automatic AND b.type = 'payout'
              AND COALESCE(b.available_on, p.arrival_date) >= ? AND COALESCE(b.available_on, p.arrival_date) < ?
            """
        var sums: [BalanceKey: [ReportingCategory: Int64]] = [:]
        var overflowed = Set<BalanceKey>()
        func add(_ key: BalanceKey, _ category: ReportingCategory, _ net: Int64) {
            guard !overflowed.contains(key) else { return }
            let (sum, overflow) = (sums[key]?[category] ?? 0).addingReportingOverflow(net)
            if overflow {
                overflowed.insert(key)
                sums[key] = nil
            } else {
                sums[key, default: [:]][category] = sum
            }
        }
        func add(_ row: SQLRow) throws {
            add(try balanceKey(row), try row.decode(atIndex: 2), try row.decode(atIndex: 3))
        }
        do {
            var selections = [datedAtCreation, datedAtArrival]
            if let rangeGroups {
                for group in rangeGroups where !group.datedAtArrival {
                    let row = group.row
                    add(
                        BalanceKey(currency: row.currency, balanceType: row.balanceType), row.reportingCategory, row.net
                    )
                }
                selections.removeFirst()
            }
            for selection in selections {
                try db.forEachRow(
                    """
                    SELECT b.currency, b.balance_type, b.reporting_category, SUM(b.net) \(selection)
                    GROUP BY b.currency, b.balance_type, b.reporting_category
                    """, bounds, add)
            }
        } catch {
            // A sum past 64 bits stops the query on both databases: add the transactions one by one instead.
            sums = [:]
            overflowed = []
            for selection in [datedAtCreation, datedAtArrival] {
                try db.forEachRow(
                    "SELECT b.currency, b.balance_type, b.reporting_category, b.net \(selection)", bounds, add)
            }
        }
        return (sums, overflowed)
    }

    /// Per balance: the automatic payouts created before `end` and dated (arriving) at or after it, positive.
    static func inTransit(_ db: SQLSession, at end: Int64) throws -> [BalanceKey: Int64] {
        var sums: [BalanceKey: Int64] = [:]
        try db.forEachRow(
            """
            SELECT b.currency, b.balance_type, SUM(b.net)
            FROM payouts p JOIN balance_transactions b ON b.id = p.balance_transaction_id
            WHERE p.automatic AND b.type = 'payout' AND b.created < ? AND COALESCE(b.available_on, p.arrival_date) >= ?
            GROUP BY b.currency, b.balance_type
            """, [.integer(end), .integer(end)]
        ) { row in
            let key = try balanceKey(row)
            let net: Int64 = try row.decode(atIndex: 2)
            sums[key] = try checkedSum([sums[key] ?? 0, -net], key)
        }
        return sums
    }

    /// The SQL condition that the balance transaction `alias` is an automatic payout's own `payout` transaction,
    /// which the roll-forward dates at the payout's arrival instead of its creation (``datedNet(_:_:rangeGroups:)``).
    /// A `CASE`, not an `AND`: SQLite evaluates both sides of an `AND` in a result column, so the payouts would be
    /// looked up for every transaction, not only for payouts.
    static func isDatedAtArrival(_ alias: String) -> String {
        """
        CASE WHEN \(alias).type = 'payout'
             THEN \(alias).id IN (SELECT p.balance_transaction_id FROM payouts p
                                  WHERE p.automatic AND p.balance_transaction_id IS NOT NULL)
             ELSE FALSE END
        """
    }

    /// The balance of a row whose first two columns are a balance transaction's `currency` and `balance_type` (the
    /// ledger's: `payments` where none is stored).
    private static func balanceKey(_ row: SQLRow) throws -> BalanceKey {
        let stored: BalanceType? = try row.decode(atIndex: 1)
        return BalanceKey(
            currency: try FactsColumn.currency(row, 0), balanceType: BalanceTransactionFacts.ledgerBalanceType(stored))
    }

    private static func checkedSum(_ values: some Sequence<Int64>, _ key: BalanceKey) throws -> Int64 {
        var total: Int64 = 0
        for value in values {
            let (sum, overflowed) = total.addingReportingOverflow(value)
            guard !overflowed else {
                throw FactsColumnError(
                    description: "the balance transactions of \(key.currency.rawValue) \(key.balanceType.rawValue) add "
                        + "up past 64 bits: the history holds corrupt amounts")
            }
            total = sum
        }
        return total
    }
}

// MARK: - Stripe's own reports

extension HistoryBalance {
    /// Keeps what Stripe's Balance report of `[from, to)` in `currency` said, or why it could not be had, as run
    /// `runID` found it; a later run's finding replaces it (a range not yet published, compared later).
    public func recordStripeReport(
        _ comparison: StripeReportComparison, currency: Currency, from: Int64, to: Int64, run runID: Int64
    ) async throws(HistoryError) {
        let row = StripeReportRow(comparison)
        try await writeDatabase { db in
            try db.execute(
                "DELETE FROM stripe_reports WHERE range_from = ? AND range_to = ? AND currency = ?",
                [.integer(from), .integer(to), .text(currency.rawValue)])
            try db.execute(
                """
                INSERT INTO stripe_reports (range_from, range_to, currency, status, starting_balance, activity, payouts,
                                            ending_balance, categories, detail, run_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(from), .integer(to), .text(currency.rawValue), .text(row.status),
                    row.published.map { .integer($0.balance.starting) } ?? .null,
                    row.published.map { .integer($0.balance.activity) } ?? .null,
                    row.published.map { .integer($0.balance.payouts) } ?? .null,
                    row.published.map { .integer($0.balance.ending) } ?? .null,
                    row.published.map { .text(StripeReportRow.categoriesText($0.activity.rows)) } ?? .null,
                    row.detail.map { .text($0) } ?? .null, .integer(runID),
                ])
        }
    }

    /// The ranges (`[from, to)`) and currencies whose Stripe report was not yet published when last asked for,
    /// newest first, at most `limit`.
    public func unpublishedStripeReports(limit: Int = 31) async throws(HistoryError) -> [(
        from: Int64, to: Int64, currency: Currency
    )] {
        try await readDatabase { db in
            try db.all(
                """
                SELECT range_from, range_to, currency FROM stripe_reports WHERE status = ?
                ORDER BY range_from DESC, range_to DESC, currency LIMIT ?
                """, [.text(StripeReportRow.notYetPublished), .integer(Int64(limit))]
            ) { row in
                (
                    from: try row.decode(Int64.self, atIndex: 0), to: try row.decode(Int64.self, atIndex: 1),
                    currency: try FactsColumn.currency(row, 2)
                )
            }
        }
    }

    /// The earlier ranges (not `range`) whose Stripe report run `runID` found published: what the run compares late,
    /// each with the report it found (and no other) among its inputs' ``BalanceInputs/stripeReports``.
    static func lateComparisons(
        _ db: SQLSession, run runID: Int64, excluding range: Range<Int64>
    ) throws -> [LateBalanceComparison] {
        let found = try db.all(
            """
            SELECT range_from, range_to, currency FROM stripe_reports
            WHERE run_id = ? AND status = 'published' AND NOT (range_from = ? AND range_to = ?)
            ORDER BY range_from, range_to, currency
            """, [.integer(runID), .integer(range.lowerBound), .integer(range.upperBound)]
        ) { row in
            (
                from: try row.decode(Int64.self, atIndex: 0), to: try row.decode(Int64.self, atIndex: 1),
                currency: try FactsColumn.currency(row, 2)
            )
        }
        var comparisons: [LateBalanceComparison] = []
        for (bounds, rows) in Dictionary(grouping: found, by: { [$0.from, $0.to] }).sorted(by: {
            $0.key.lexicographicallyPrecedes($1.key)
        }) {
            guard var inputs = try inputs(db, from: bounds[0], to: bounds[1]) else { continue }
            let currencies = Set(rows.map(\.currency))
            inputs.stripeReports = inputs.stripeReports.filter { currencies.contains($0.key) }
            comparisons.append(LateBalanceComparison(from: bounds[0], to: bounds[1], inputs: inputs))
        }
        return comparisons
    }

    /// Stripe's reports of exactly `[from, to)`, per currency.
    static func stripeReports(_ db: SQLSession, from: Int64, to: Int64) throws -> [Currency: StripeReportComparison] {
        var reports: [Currency: StripeReportComparison] = [:]
        try db.forEachRow(
            """
            SELECT currency, status, starting_balance, activity, payouts, ending_balance, categories, detail
            FROM stripe_reports WHERE range_from = ? AND range_to = ?
            """, [.integer(from), .integer(to)]
        ) { row in
            let currency = try FactsColumn.currency(row, 0)
            var published: (BalanceSummaryReport, ActivitySummaryReport)?
            if let starting = try row.decode(Int64?.self, atIndex: 2),
                let activity = try row.decode(Int64?.self, atIndex: 3),
                let payouts = try row.decode(Int64?.self, atIndex: 4),
                let ending = try row.decode(Int64?.self, atIndex: 5)
            {
                published = (
                    BalanceSummaryReport(
                        currency: currency, intervalStart: from, intervalEnd: to, starting: starting,
                        activity: activity, payouts: payouts, ending: ending),
                    ActivitySummaryReport(
                        currency: currency, intervalStart: from, intervalEnd: to,
                        rows: try StripeReportRow.categories(try row.decode(String?.self, atIndex: 6) ?? ""))
                )
            }
            reports[currency] =
                StripeReportRow(
                    status: try row.decode(atIndex: 1), published: published, detail: try row.decode(atIndex: 7)
                )
                .comparison
        }
        return reports
    }
}

/// A ``StripeReportComparison`` as `stripe_reports` keeps it.
struct StripeReportRow {
    static let notYetPublished = "not_yet_published"

    var status: String
    var published: (balance: BalanceSummaryReport, activity: ActivitySummaryReport)?
    var detail: String?

    init(
        status: String, published: (balance: BalanceSummaryReport, activity: ActivitySummaryReport)?, detail: String?
    ) {
        self.status = status
        self.published = published
        self.detail = detail
    }

    init(_ comparison: StripeReportComparison) {
        switch comparison {
        case .published(let balance, let activity):
            self.init(status: "published", published: (balance, activity), detail: nil)
        case .notYetPublished: self.init(status: Self.notYetPublished, published: nil, detail: nil)
        case .notPermitted(let reason): self.init(status: "not_permitted", published: nil, detail: reason)
        case .unavailable(let reason): self.init(status: "unavailable", published: nil, detail: reason)
        }
    }

    var comparison: StripeReportComparison {
        switch status {
        case "published":
            published.map { .published(balance: $0.balance, activity: $0.activity) }
                ?? .unavailable(detail ?? "the stored report has no figures")
        case Self.notYetPublished: .notYetPublished
        case "not_permitted": .notPermitted(detail ?? "")
        default: .unavailable(detail ?? "")
        }
    }

    /// `charge=3:1000:30:970;refund=1:-300:0:-300` (count, gross, fee, net), by category name: no category holds
    /// `=`, `:` or `;` (they are identifiers).
    static func categoriesText(_ rows: [String: ActivitySummaryReport.Row]) -> String {
        rows.sorted { $0.key < $1.key }.map {
            "\($0.key)=\($0.value.count):\($0.value.gross):\($0.value.fee):\($0.value.net)"
        }
        .joined(separator: ";")
    }

    static func categories(_ text: String) throws -> [String: ActivitySummaryReport.Row] {
        var rows: [String: ActivitySummaryReport.Row] = [:]
        for entry in text.split(separator: ";") {
            let parts = entry.split(separator: "=", maxSplits: 1)
            let figures = parts.count == 2 ? parts[1].split(separator: ":").compactMap { Int64($0) } : []
            guard figures.count == 4 else {
                throw FactsColumnError(
                    description:
                        "'\(entry.prefix(60))' in stripe_reports.categories is not category=count:gross:fee:net")
            }
            rows[String(parts[0])] = ActivitySummaryReport.Row(
                count: figures[0], gross: figures[1], fee: figures[2], net: figures[3])
        }
        return rows
    }
}
