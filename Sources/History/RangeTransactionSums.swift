import ReconCore

/// The range's balance transactions added up once, for the two readers of their sums: the ledger's totals
/// (``HistoryParts``, part 4) and the roll-forward's net per balance and reporting category
/// (``HistoryBalance/datedNet(_:_:rangeGroups:)``). Each of them used to scan the range's balance transactions on its
/// own, and each scan cost a third of reading every fact table once (docs/BENCHMARKS.md).
struct RangeTransactionSums {
    /// The range's balance transactions of one currency, ledger balance type, reporting category, and either dated at
    /// their creation or not (an automatic payout's own `payout` transaction, which the roll-forward dates at its
    /// arrival: ``HistoryBalance/datedNet(_:_:rangeGroups:)``), added up by the database.
    struct Group {
        /// The group's count and sums, as the ledger shows them. Its balance type is
        /// ``BalanceTransactionFacts/ledgerBalanceType(_:)`` of the stored one: a group stored without one and a group
        /// stored as `payments` are two groups with the same key.
        var row: LedgerRow
        /// An automatic payout's own `payout` transaction: the roll-forward dates it at the payout's arrival, so its
        /// range sums leave it out; the ledger counts it.
        var datedAtArrival: Bool
        /// Σ|amount|, Σ|fee|, Σ|net|: whether some total might overflow 64 bits in some order of addition.
        var magnitude: [Int64]
    }

    var groups: [Group]
    /// The ids of the range's balance transactions that the parts read whole although their sums are added up here:
    /// those that may be Stripe's costs and the connect collection transfers (``PartLoader/isStripeCostCandidate(_:)``,
    /// ``PartLoader/isCollectionTransfer(_:)``), a few a day, found in the same pass. `nil` where the database added
    /// the sums up (PostgreSQL): then each is found by a scan of the range of its own.
    var readWhole: [String]?

    /// The sums of `[from, to)`; `nil` when some total might not fit in 64 bits in some order of addition (the sum of
    /// a group's absolute values does not fit, corrupt amounts): then each reader adds the transactions itself and
    /// names the one that does not fit.
    static func read(_ db: SQLSession, from: Int64, to: Int64) throws -> RangeTransactionSums? {
        if db.dialect == .sqlite { return try added(db, from: from, to: to) }
        do {
            // A sum that does not fit stops the query (SQLite's SUM never wraps; PostgreSQL's is a `numeric` that
            // does not read as 64 bits): whether one could have is told below by checked arithmetic, not the error.
            return RangeTransactionSums(
                groups: try db.all(
                    """
                    SELECT b.currency, b.balance_type, b.reporting_category, \(HistoryBalance.isDatedAtArrival("b")),
                           COUNT(*), SUM(b.amount), SUM(b.fee), SUM(b.net),
                           SUM(ABS(b.amount)), SUM(ABS(b.fee)), SUM(ABS(b.net))
                    FROM balance_transactions b WHERE b.created >= ? AND b.created < ?
                    GROUP BY 1, 2, 3, 4
                    """, [.integer(from), .integer(to)]
                ) { row in
                    let stored: BalanceType? = try row.decode(atIndex: 1)
                    return Group(
                        row: LedgerRow(
                            currency: try FactsColumn.currency(row, 0),
                            balanceType: BalanceTransactionFacts.ledgerBalanceType(stored),
                            reportingCategory: try row.decode(atIndex: 2), count: try row.decode(atIndex: 4),
                            gross: try row.decode(atIndex: 5), fee: try row.decode(atIndex: 6),
                            net: try row.decode(atIndex: 7)),
                        datedAtArrival: try row.bool(3),
                        magnitude: [
                            try row.decode(atIndex: 8), try row.decode(atIndex: 9), try row.decode(atIndex: 10),
                        ])
                }, readWhole: nil)
        } catch {
            if try sumsMightOverflow(db, from: from, to: to) { return nil }
            throw error
        }
    }

    /// SQLite's sums, added up here from one pass over the range's transactions: SQLite answers a `GROUP BY` by
    /// sorting every row first (in a temporary B-tree), which took two thirds of the query (0.36 s of it at 150,000
    /// charges, for 0.11 s of reading; docs/BENCHMARKS.md, "Fewer copies"). The groups are SQLite's: keyed by the
    /// stored text, in its order (bytes, no `balance_type` first). `nil` when a sum of magnitudes does not fit in 64
    /// bits, where SQLite's `SUM` would have failed and ``sumsMightOverflow(_:from:to:)`` answered yes.
    private static func added(_ db: SQLSession, from: Int64, to: Int64) throws -> RangeTransactionSums? {
        struct Key: Hashable {
            let currency: String
            let balanceType: String?
            let category: String
            let datedAtArrival: Bool
        }
        struct Sums {
            var count = 0
            var total = (amount: Int64(0), fee: Int64(0), net: Int64(0))
            var magnitude = (amount: Int64(0), fee: Int64(0), net: Int64(0))

            /// Adds one transaction; `false` when a sum of magnitudes no longer fits (and nothing is added).
            mutating func add(amount: Int64, fee: Int64, net: Int64) -> Bool {
                func sum(_ a: Int64, _ b: Int64) -> Int64? {
                    guard b != .min else { return nil }
                    let (total, overflowed) = a.addingReportingOverflow(abs(b))
                    return overflowed ? nil : total
                }
                guard let amountMagnitude = sum(magnitude.amount, amount), let feeMagnitude = sum(magnitude.fee, fee),
                    let netMagnitude = sum(magnitude.net, net)
                else { return false }
                magnitude = (amountMagnitude, feeMagnitude, netMagnitude)
                // Each sum of magnitudes fits, so every partial sum of the values does too.
                total = (total.amount &+ amount, total.fee &+ fee, total.net &+ net)
                count += 1
                return true
            }
        }
        var sums: [Key: Sums] = [:]
        var fits = true
        var readWhole: [String] = []
        try db.forEachRow(
            """
            SELECT b.currency, b.balance_type, b.reporting_category, \(HistoryBalance.isDatedAtArrival("b")),
                   b.amount, b.fee, b.net,
                   CASE WHEN \(PartLoader.isStripeCostCandidate("b")) OR \(PartLoader.isCollectionTransfer("b"))
                        THEN b.id END
            FROM balance_transactions b WHERE b.created >= ? AND b.created < ?
            """, [.integer(from), .integer(to)]
        ) { row in
            guard fits else { return }
            if !row.isNull(7) { readWhole.append(try row.text(7)) }
            let key = Key(
                currency: try row.text(0), balanceType: row.isNull(1) ? nil : try row.text(1),
                category: try row.text(2), datedAtArrival: try row.bool(3))
            let (amount, fee, net) = (try row.int64(4), try row.int64(5), try row.int64(6))
            fits = sums[key, default: Sums()].add(amount: amount, fee: fee, net: net)
        }
        guard fits else { return nil }
        // SQLite's order: the text's bytes, no `balance_type` before any.
        let ordered = sums.sorted { a, b in
            if a.key.currency != b.key.currency {
                return a.key.currency.utf8.lexicographicallyPrecedes(b.key.currency.utf8)
            }
            if a.key.balanceType != b.key.balanceType {
                guard let left = a.key.balanceType else { return true }
                guard let right = b.key.balanceType else { return false }
                return left.utf8.lexicographicallyPrecedes(right.utf8)
            }
            if a.key.category != b.key.category {
                return a.key.category.utf8.lexicographicallyPrecedes(b.key.category.utf8)
            }
            return !a.key.datedAtArrival && b.key.datedAtArrival
        }
        return RangeTransactionSums(
            groups: try ordered.map { key, sums in
                Group(
                    row: LedgerRow(
                        currency: try FactsColumn.currency(code: key.currency),
                        balanceType: BalanceTransactionFacts.ledgerBalanceType(key.balanceType.map(BalanceType.init)),
                        reportingCategory: ReportingCategory(rawValue: key.category), count: sums.count,
                        gross: sums.total.amount, fee: sums.total.fee, net: sums.total.net),
                    datedAtArrival: key.datedAtArrival,
                    magnitude: [sums.magnitude.amount, sums.magnitude.fee, sums.magnitude.net])
            }, readWhole: readWhole)
    }

    /// Whether some group of the range's balance transactions might add up past 64 bits in some order: the count
    /// times the largest magnitude (of `amount`, `fee` or `net`) does not fit, by checked arithmetic. `MIN` and `MAX`
    /// never overflow, so this query answers whatever the sums do.
    private static func sumsMightOverflow(_ db: SQLSession, from: Int64, to: Int64) throws -> Bool {
        let bounds = try db.all(
            """
            SELECT COUNT(*), MIN(amount), MAX(amount), MIN(fee), MAX(fee), MIN(net), MAX(net)
            FROM balance_transactions WHERE created >= ? AND created < ?
            """, [.integer(from), .integer(to)]
        ) { row -> (count: Int64, extremes: [Int64?]) in
            (try row.decode(atIndex: 0), try (1...6).map { index in try row.decode(Int64?.self, atIndex: index) })
        }
        guard let range = bounds.first, range.count > 0 else { return false }
        let largest = range.extremes.compactMap { $0?.magnitude }.max() ?? 0
        let (product, overflowed) = UInt64(range.count).multipliedReportingOverflow(by: largest)
        return overflowed || product > UInt64(Int64.max)
    }
}
