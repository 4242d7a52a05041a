import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// The books close in the history (docs/RULES.md): snapshots of Stripe's balance, the spans the runs listed, which
/// snapshot anchors a range, and the sums that carry it there, with an automatic payout dated at its arrival.
@Suite("History store: the balance")
struct BalanceHistoryTests {
    static let day: Int64 = 86_400
    static let from: Int64 = 1_795_132_800  // 2026-11-20
    static let to = from + day
    static let usd = BalanceKey(currency: .usd, balanceType: .payments)

    static func transaction(
        _ id: String, created: Int64, net: Int64, type: BalanceTransactionType = "charge",
        category: ReportingCategory = "charge", availableOn: Int64? = nil, source: String? = nil
    ) -> BalanceTransactionFacts {
        BalanceTransactionFacts(
            id: id, created: created, currency: .usd, amount: net, fee: 0, net: net, type: type,
            reportingCategory: category, sourceID: source, exchangeRate: nil, status: "available",
            availableOn: availableOn ?? created, balanceType: .payments)
    }

    /// An automatic payout of 60.00 created two days before the range and arriving in it, a manual one of 5.00 in
    /// the range, an automatic one of 100.00 created after the range and arriving two days later, and charges: +30.00
    /// before the range, +150.00 in it, +10.00 after it.
    static func batch() -> ObjectLists {
        func payout(_ id: String, created: Int64, amount: Int64, arrival: Int64, automatic: Bool) -> PayoutFacts {
            PayoutFacts(
                id: id, created: created, currency: .usd, amount: amount, arrivalDate: arrival, status: "paid",
                automatic: automatic, balanceTransactionID: "txn_\(id)", failureBalanceTransactionID: nil,
                failureCode: nil, livemode: false)
        }
        let payouts = [
            payout("po_old", created: from - 2 * day + 21_600, amount: 6_000, arrival: from, automatic: true),
            payout("po_manual", created: from + 40_000, amount: 500, arrival: from + 40_000, automatic: false),
            payout("po_new", created: to + 1_200, amount: 10_000, arrival: to + 2 * day, automatic: true),
        ]
        let transactions =
            [
                transaction("txn_before", created: from - 3 * day, net: 3_000),
                transaction("txn_day", created: from + 3_600, net: 15_000),
                transaction("txn_after", created: to + 720, net: 1_000),
            ]
            + payouts.map {
                transaction(
                    "txn_\($0.id)", created: $0.created, net: -$0.amount, type: "payout", category: "payout",
                    availableOn: $0.arrivalDate, source: $0.id)
            }
        var batch = ObjectLists()
        batch[stored: PayoutFacts.self] = payouts.map { StoredObject(facts: $0, rawJSON: #"{"id":"\#($0.id)"}"#) }
        batch[stored: BalanceTransactionFacts.self] = transactions.map {
            StoredObject(facts: $0, rawJSON: #"{"id":"\#($0.id)"}"#)
        }
        return batch
    }

    /// A new history holding ``batch()``, written by a run of the range; the database lives as long as the first.
    static func historyHoldingBatch(
        _ backend: TestHistoryBackend
    ) async throws -> (database: TemporaryDatabase, store: HistoryStore) {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start(from: from, to: to)).runID
        _ = try await store.objects.write(batch(), run: run, now: to)
        return (database, store)
    }

    @Test("an automatic payout is dated at its arrival, a manual one at its creation")
    func datingOfPayouts() async throws {
        let (database, store) = try await Self.historyHoldingBatch(.sqlite)
        defer { withExtendedLifetime(database) {} }
        let (inRange, overflowed) = try store.read { db in try HistoryBalance.datedNet(db, Self.from..<Self.to) }
        #expect(overflowed.isEmpty)
        // The range's charge, the old automatic payout arriving in it, the manual one created in it
        #expect(inRange[Self.usd] == ["charge": 15_000, "payout": -6_500])
        // After the range: the charge and nothing of the new payout (it arrives two days later: in transit)
        let (after, _) = try store.read { db in try HistoryBalance.datedNet(db, Self.to..<(Self.to + 1_801)) }
        #expect(after[Self.usd] == ["charge": 1_000])
        let inTransit = try store.read { db in try HistoryBalance.inTransit(db, at: Self.to + 1_801) }
        #expect(inTransit == [Self.usd: 10_000])
    }

    @Test(
        "the range's sums, added up once, give the roll-forward what its own scan gives, on PostgreSQL",
        .postgreSQLServer)
    func rangeSumsOnPostgreSQL() async throws { try await rangeSums(backend: .postgreSQL) }

    @Test(
        "the range's sums, added up once, give the roll-forward what its own scan gives",
        arguments: [TestHistoryBackend.sqlite])
    func rangeSums(backend: TestHistoryBackend) async throws {
        let (database, store) = try await Self.historyHoldingBatch(backend)
        defer { withExtendedLifetime(database) {} }
        // The range, and a span holding the new automatic payout's own transaction but not its arrival
        for span in [Self.from..<Self.to, Self.to..<(Self.to + 1_801)] {
            let (own, once, sums) = try store.read { db in
                let sums = try #require(try RangeTransactionSums.read(db, from: span.lowerBound, to: span.upperBound))
                return (
                    try HistoryBalance.datedNet(db, span),
                    try HistoryBalance.datedNet(db, span, rangeGroups: sums.groups), sums
                )
            }
            #expect(once.sums == own.sums)
            #expect(once.overflowed == own.overflowed)
            // The ledger counts every transaction created in the span, the payout dated at its arrival included
            let payouts = sums.groups.filter { $0.row.reportingCategory == "payout" }
            if span.lowerBound == Self.to {
                #expect(payouts.map(\.datedAtArrival) == [true])
                #expect(payouts.map(\.row.net) == [-10_000])
                #expect(own.sums[Self.usd] == ["charge": 1_000])
            } else {
                #expect(payouts.map(\.datedAtArrival) == [false])
                #expect(payouts.map(\.row.net) == [-500])
            }
        }
    }

    @Test(
        "a range is anchored on the nearest snapshot the history reaches, and continuous with the one before, on PostgreSQL",
        .postgreSQLServer)
    func anchorAndContinuityOnPostgreSQL() async throws { try await anchorAndContinuity(backend: .postgreSQL) }

    @Test(
        "a range is anchored on the nearest snapshot the history reaches, and continuous with the one before",
        arguments: [TestHistoryBackend.sqlite])
    func anchorAndContinuity(backend: TestHistoryBackend) async throws {
        // Given the objects, and two runs' snapshots: the night before (read at 00:30 of the range's day, listed from
        // the day before) and the range's night (read at 00:30 after it, listed from the range's start)
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let night1 = try store.runs.beginRun(start(from: Self.from - Self.day, to: Self.from)).runID
        let night2 = try store.runs.beginRun(start(from: Self.from, to: Self.to)).runID
        _ = try await store.objects.write(Self.batch(), run: night2, now: Self.to)
        // Stripe's live balance: everything created before the read; night 1 reads 30.00 − 60.00 of the old payout
        let earlier = BalanceSnapshot(
            takenAt: Self.from + 1_800, amounts: [Self.usd: 3_000 - 6_000], reportedTypes: [.payments])
        let later = BalanceSnapshot(
            takenAt: Self.to + 1_800, amounts: [Self.usd: 3_000 - 6_000 + 15_000 - 500 + 1_000 - 10_000],
            reportedTypes: [.payments])
        try await store.balance.record(earlier, raw: "{}", run: night1, covered: (Self.from - Self.day)..<earlier.end)
        #expect(try await store.balance.canAnchor(from: Self.from, to: Self.to) == false)
        try await store.balance.record(later, raw: "{}", run: night2, covered: Self.from..<later.end)
        #expect(try await store.balance.canAnchor(from: Self.from, to: Self.to))

        // When the range's inputs are read
        let inputs = try #require(try store.read { db in try HistoryBalance.inputs(db, from: Self.from, to: Self.to) })

        // Then it ends at 30.00 + 150.00 − 60.00 − 5.00 = 115.00, carried from the later read with the payout in
        // transit, and starts at 30.00, which is what the earlier read implies
        let ending = try #require(inputs.ending)
        #expect(ending.snapshot.takenAt == Self.to + 1_800)
        #expect(ending.inTransit == [Self.usd: 10_000])
        #expect(ending.balance(Self.usd) == 11_500)
        let implied = try #require(inputs.earlier?.balance(Self.usd))
        #expect(implied == 3_000)
        #expect(inputs.dated[Self.usd]?.values.reduce(0, +) == 8_500)
    }

    @Test("coverage: a span is covered by the union of the runs' listed spans, with no hole")
    func coverage() {
        #expect(HistoryBalance.covers(10..<20, [0..<12, 12..<25]))
        #expect(HistoryBalance.covers(10..<20, [15..<30, 5..<16]))
        #expect(!HistoryBalance.covers(10..<20, [0..<12, 13..<25]))
        #expect(!HistoryBalance.covers(10..<20, []))
        #expect(HistoryBalance.covers(10..<10, []))
    }

    @Test("a re-run of an older range is anchored on the history's snapshots, not on a new read it cannot reach")
    func olderRangeAnchoredOnTheNearestReachableSnapshot() throws {
        func stored(_ run: Int64, at takenAt: Int64, covered: Range<Int64>) -> StoredBalanceSnapshot {
            StoredBalanceSnapshot(
                runID: run, snapshot: BalanceSnapshot(takenAt: takenAt, amounts: [:], reportedTypes: [.payments]),
                covered: covered)
        }
        // Nights of the 20th, 21st and 22nd, then a read a month later whose run listed only its own old range
        let snapshots = [
            stored(1, at: Self.to + 1_800, covered: Self.from..<(Self.to + 1_801)),
            stored(2, at: Self.to + Self.day + 1_800, covered: Self.to..<(Self.to + Self.day + 1_801)),
            stored(
                3, at: Self.to + 2 * Self.day + 1_800, covered: (Self.to + Self.day)..<(Self.to + 2 * Self.day + 1_801)),
            stored(4, at: Self.to + 30 * Self.day, covered: Self.from..<Self.to),
        ]
        #expect(HistoryBalance.endingSnapshot(to: Self.to, among: snapshots)?.runID == 1)
        #expect(HistoryBalance.endingSnapshot(to: Self.to + Self.day, among: snapshots)?.runID == 2)
        // The range of the 21st continues from the snapshot of the 20th's night
        let ending = HistoryBalance.endingSnapshot(to: Self.to + Self.day, among: snapshots)
        #expect(HistoryBalance.earlierSnapshot(from: Self.to, before: ending, among: snapshots)?.runID == 1)
    }
}
