import ExtractionTestSupport
import Foundation
import History
import ReconCore
import Reconcile
import Sandbox
import TestSupport
import Testing

/// The reconcile in parts against the reconcile of the whole range, on a history extracted from a
/// sandbox world: every object created in the range is judged in exactly one part, and the report is the same,
/// row for row, whatever the part size.
@Suite("Reconciliation in parts")
struct ReconciliationPartsTests {
    static let day = ExtractionHarness.day
    static let start = ExtractionHarness.start

    /// Whole world, a mid-range slice (refunds, disputes and transfers of charges from before it), the last day
    /// inside the grace period, and a range with nothing in it.
    static let ranges: [(from: Int64, to: Int64, asOf: Int64)] = [
        (start, start + 10 * day, start + 40 * day),
        (start + 3 * day, start + 5 * day, start + 40 * day),
        (start + 9 * day, start + 10 * day, start + 10 * day + 600),
        (start + 20 * day, start + 21 * day, start + 40 * day),
    ]

    @Test(
        "parts of any size give the whole range's report, and judge every object of the range exactly once, on PostgreSQL",
        .postgreSQLServer)
    func partsMatchTheWholeRangeOnPostgreSQL() async throws { try await partsMatchTheWholeRange(backend: .postgreSQL) }

    @Test(
        "parts of any size give the whole range's report, and judge every object of the range exactly once",
        arguments: [TestHistoryBackend.sqlite])
    func partsMatchTheWholeRange(backend: TestHistoryBackend) async throws {
        // Given a history holding a whole sandbox world, corrupt data families included
        let harness = try await ExtractionHarness { $0.charges = 400 }
        let store = try harness.store(backend)
        try await harness.extract(store: store, client: try harness.client())

        for range in Self.ranges {
            let whole = try store.parts.whole(
                from: range.from, to: range.to, asOf: range.asOf, skippedTransferGrace: 3_600)
            let expected = Reconciler.reconcile(whole)
            for size in [1, 7, 5_000] {
                // When the range is reconciled part by part, platform fees taken as they come
                var session = ReconciliationSession(asOf: range.asOf, skippedTransferGrace: 3_600)
                var platformFees: [PlatformFeeRow] = []
                var judged = JudgedTally()
                try store.parts.forEach(
                    from: range.from, to: range.to, asOf: range.asOf, skippedTransferGrace: 3_600,
                    chargesPerPart: size
                ) { part in
                    judged.add(part)
                    session.add(part)
                    platformFees += session.takePlatformFees()
                }
                var report = session.report()
                report.platformFees = platformFees

                // Then the report is the whole range's, in the same order
                let label = "range \(range.from)…\(range.to), \(size) charges a part"
                #expect(report == expected, "\(label)")
                #expect(report.platformFees.count == expected.platformFees.count, "\(label)")
                // The statements, the per-day series and the findings by kind, added up part by part, too
                #expect(report.connectedAccounts == expected.connectedAccounts, "\(label)")
                #expect(report.dailyPlatformFees == expected.dailyPlatformFees, "\(label)")
                #expect(report.findingCounts == expected.findingCounts, "\(label)")
                #expect(expected.platformFees.isEmpty || !expected.connectedAccounts.isEmpty, "\(label)")
                // The payouts and the transactions they paid out, part by part, too
                #expect(report.payouts == expected.payouts, "\(label)")
                #expect(report.payoutTransactions == expected.payoutTransactions, "\(label)")
                // And the payout transactions taken part by part, as the pipeline writes them, are the whole
                // range's, while every payout part holds at most a part's worth of paid-out transactions, whatever
                // the range's length or a payout's size (a payout that paid out more continues over several parts)
                var streamed: [PayoutTransactionRow] = []
                var continued = 0
                var taking = ReconciliationSession(asOf: range.asOf, skippedTransferGrace: 3_600)
                try store.parts.forEach(
                    from: range.from, to: range.to, asOf: range.asOf, skippedTransferGrace: 3_600,
                    chargesPerPart: size
                ) { part in
                    taking.add(part)
                    streamed += taking.takePayoutTransactions()
                    if !part.payouts.isEmpty { #expect(part.balanceTransactions.count <= size, "\(label)") }
                    continued += part.judged?.payoutsContinued.count ?? 0
                }
                #expect(streamed == expected.payoutTransactions, "\(label)")
                #expect(
                    size > 7 || expected.payoutTransactions.isEmpty || continued > 0, "\(label): no payout continued")
                var leanReport = taking.report()
                #expect(leanReport.payoutTransactions.isEmpty, "\(label)")
                leanReport.payoutTransactions = streamed
                #expect(leanReport == expected, "\(label)")
                // And every object the whole range judges is judged once
                #expect(judged.duplicates.isEmpty, "\(label): judged twice: \(judged.duplicates.prefix(5))")
                let inRange = { (created: Int64) in range.from <= created && created < range.to }
                #expect(judged.ids[.charge] == Set(whole.charges.filter { inRange($0.created) }.map(\.id)), "\(label)")
                #expect(
                    judged.ids[.transfer] == Set(whole.transfers.filter { inRange($0.created) }.map(\.id)), "\(label)")
                #expect(
                    judged.ids[.applicationFee] == Set(whole.applicationFees.filter { inRange($0.created) }.map(\.id)),
                    "\(label)")
                #expect(judged.ids[.refund] == Set(whole.refunds.filter { inRange($0.created) }.map(\.id)), "\(label)")
                #expect(
                    judged.ids[.dispute] == Set(whole.disputes.filter { inRange($0.created) }.map(\.id)), "\(label)")
                #expect(judged.ids[.payout] == Set(whole.payouts.filter { inRange($0.created) }.map(\.id)), "\(label)")
                // The ledger comes added up by the history, in one part, instead of transaction by transaction
                #expect(judged.ids[.balanceTransaction] == [], "\(label)")
                #expect(Set(judged.ledgerTotals) == Set(expected.ledger), "\(label)")
                #expect(judged.ledgerParts == (expected.ledger.isEmpty ? 0 : 1), "\(label)")
            }
            if range.to - range.from >= 2 * Self.day {
                // The range's payouts were extracted with what they paid out (in a slice, before it too)
                #expect(!expected.payouts.isEmpty, "range \(range.from)…\(range.to)")
                #expect(range.from == Self.start || expected.payoutTransactions.contains { $0.created < range.from })
                #expect(expected.payouts.allSatisfy { ($0.balanceTransactions ?? 1) > 0 })
            }
            if range.from == Self.start + 3 * Self.day {
                // The slice really has objects whose charge is older than the range (judged without their charge)
                let sliceCharges = Set(whole.charges.filter { $0.created >= range.from }.map(\.id))
                #expect(
                    whole.refunds.contains { $0.created >= range.from && !sliceCharges.contains($0.chargeID ?? "") })
            }
        }
        try await harness.close()
    }
}

extension ReconciliationPartsTests {
    @Test("what a part holds is bounded by the part size, not by the range: eight times the objects, no larger parts")
    func partsDoNotGrowWithTheRange() async throws {
        // Given a history of a whole sandbox world
        let harness = try await ExtractionHarness { $0.charges = 400 }
        let store = try harness.store()
        try await harness.extract(store: store, client: try harness.client())

        // When a range of 1 day and one of 8 days, both inside the world's 10 days, are read in parts of 7
        func read(days: Int64) throws -> (objects: Int, parts: Int, largest: Int, largestBatch: Int) {
            let (from, to) = (Self.start + Self.day, Self.start + (1 + days) * Self.day)
            var session = ReconciliationSession(asOf: Self.start + 40 * Self.day, skippedTransferGrace: 3_600)
            var figures = (objects: 0, parts: 0, largest: 0, largestBatch: 0)
            try store.parts.forEach(
                from: from, to: to, asOf: Self.start + 40 * Self.day, skippedTransferGrace: 3_600, chargesPerPart: 7
            ) { part in
                session.add(part)
                let batch = max(session.takePlatformFees().count, session.takePayoutTransactions().count)
                figures.objects += part.objectCount
                figures.parts += 1
                figures.largest = max(figures.largest, part.objectCount)
                figures.largestBatch = max(figures.largestBatch, batch)
            }
            return figures
        }
        let short = try read(days: 1)
        let long = try read(days: 8)

        // Then the long range reads many times the objects, in many more parts...
        #expect(long.objects >= 4 * short.objects, "\(short) \(long)")
        #expect(long.parts >= 4 * short.parts, "\(short) \(long)")
        // ...but no part, and no batch of rows the writer is handed, is larger than a part of the short range
        // allows: 7 objects judged, each with what it refers to (a charge with its PaymentIntent, transfer,
        // reversals, fee, refunds, disputes and their balance transactions), or 7 paid-out transactions
        #expect(long.largest <= 7 * 24, "\(long)")
        #expect(short.largest <= 7 * 24, "\(short)")
        #expect(long.largestBatch <= 7 && short.largestBatch <= 7, "\(short) \(long)")
    }

    @Test(
        "the ledger added up by the history counts a transaction without balance_type as payments, as the rules do, on PostgreSQL",
        .postgreSQLServer)
    func ledgerTotalsMatchTheRulesOnPostgreSQL() async throws {
        try await ledgerTotalsMatchTheRules(backend: .postgreSQL)
    }

    @Test(
        "the ledger added up by the history counts a transaction without balance_type as payments, as the rules do",
        arguments: [TestHistoryBackend.sqlite])
    func ledgerTotalsMatchTheRules(backend: TestHistoryBackend) async throws {
        // Given four balance transactions of the range in one currency and category: two without balance_type,
        // one stored as payments, and one of another balance type
        let balanceTypes: [BalanceType?] = [nil, nil, .payments, "issuing"]
        let transactions = balanceTypes.enumerated().map { index, balanceType in
            BalanceTransactionFacts(
                id: "txn_\(index)", created: Self.start + Int64(index), currency: .usd,
                amount: 1_000 * Int64(index + 1), fee: 30, net: 1_000 * Int64(index + 1) - 30, type: "charge",
                reportingCategory: "charge", sourceID: nil, exchangeRate: nil, status: "available",
                balanceType: balanceType)
        }

        // When the range is reconciled in parts and at once
        let (parts, judged, whole) = try await Self.reconcileADay(of: transactions, in: backend)

        // Then the history handed over two totals, not the transactions, and the ledger is the rules' own
        #expect(judged.ids[.balanceTransaction] == [])
        #expect(judged.ledgerParts == 1)
        #expect(parts == whole)
        let payments = try #require(whole.ledger.first { $0.balanceType == .payments })
        #expect(payments.count == 3)
        #expect(payments.gross == 6_000)
        #expect(payments.fee == 90)
        #expect(whole.ledger.map(\.balanceType) == [.payments, "issuing"].sorted { $0.rawValue < $1.rawValue })
    }

    @Test(
        "a ledger whose sum overflows 64 bits names the transaction that does not fit, in parts as at once, on PostgreSQL",
        .postgreSQLServer)
    func ledgerOverflowIsNamedInPartsOnPostgreSQL() async throws {
        try await ledgerOverflowIsNamedInParts(backend: .postgreSQL)
    }

    @Test(
        "a ledger whose sum overflows 64 bits names the transaction that does not fit, in parts as at once",
        arguments: [TestHistoryBackend.sqlite])
    func ledgerOverflowIsNamedInParts(backend: TestHistoryBackend) async throws {
        // Given two balance transactions of the range whose amounts add up past Int64.max
        let transactions = (1...3).map { index in
            BalanceTransactionFacts(
                id: "txn_\(index)", created: Self.start + Int64(index), currency: .usd,
                amount: index == 3 ? 5 : Int64.max / 2 + 1, fee: 0, net: index == 3 ? 5 : Int64.max / 2 + 1,
                type: "charge", reportingCategory: "charge", sourceID: nil, exchangeRate: nil, status: "available")
        }

        // When the range is reconciled in parts and at once
        let (parts, judged, whole) = try await Self.reconcileADay(of: transactions, in: backend)

        // Then the transactions came one by one, and the report is the whole range's: the one that overflows is
        // named and left out of the total; the balance whose roll-forward cannot be added up is named too, and has
        // no row
        #expect(judged.ids[.balanceTransaction] == ["txn_1", "txn_2", "txn_3"])
        #expect(parts == whole)
        #expect(whole.exceptions.map(\.objectID) == ["usd/payments", "txn_2"])
        #expect(whole.exceptions.map(\.kind) == [.amountOverflow, .amountOverflow])
        #expect(whole.ledger.first?.count == 2)
        #expect(whole.balance.isEmpty)
    }

    @Test(
        "Stripe's costs come out the same whether the ledger is added up by the history or page by page, on PostgreSQL",
        .postgreSQLServer)
    func stripeCostsInBothLedgerPathsOnPostgreSQL() async throws {
        try await stripeCostsInBothLedgerPaths(backend: .postgreSQL)
    }

    @Test(
        "Stripe's costs come out the same whether the ledger is added up by the history or page by page",
        arguments: [TestHistoryBackend.sqlite])
    func stripeCostsInBothLedgerPaths(backend: TestHistoryBackend) async throws {
        // Given two days' IC+ costs (one named before the range), a credit, a charge's own fee line, and, in the second
        // history, a transaction so large that the ledger must be added up page by page
        func cost(_ id: String, _ net: Int64, _ description: String, source: String? = nil) -> BalanceTransactionFacts {
            BalanceTransactionFacts(
                id: id, created: Self.start + 60, currency: .usd, amount: net, fee: 0, net: net, type: .stripeFee,
                reportingCategory: .fee, sourceID: source, exchangeRate: nil, status: "available",
                description: description)
        }
        let costs = [
            cost("txn_c1", -1_200, "Card payments (2026-10-31): Stripe volume fees"),
            cost("txn_c2", -300, "Card payments (2026-10-31): Stripe volume fees"),
            cost("txn_c3", 90, "Card payments (2026-10-30): Credit for previously-assessed fees"),
            cost("txn_c4", -59, "Stripe processing fees", source: "ch_x"),
        ]
        let huge = (1...2).map { index in
            BalanceTransactionFacts(
                id: "txn_h\(index)", created: Self.start + Int64(index), currency: .usd, amount: Int64.max / 2 + 1,
                fee: 0, net: Int64.max / 2 + 1, type: "charge", reportingCategory: "charge", sourceID: nil,
                exchangeRate: nil, status: "available")
        }
        // When each is reconciled in parts and at once
        let totals = try await Self.reconcileADay(of: costs, in: backend)
        let pages = try await Self.reconcileADay(of: costs + huge, in: backend)
        // Then both paths list the same costs, by the day each names, and the Summary adds them up
        let expected = [
            StripeCostRow(
                day: "2026-10-30", currency: .usd, kind: "Card payments: Credit for previously-assessed fees", count: 1,
                amount: -90),
            StripeCostRow(
                day: "2026-10-31", currency: .usd, kind: "Card payments: Stripe volume fees", count: 2, amount: 1_500),
        ]
        for (parts, whole) in [(totals.parts, totals.whole), (pages.parts, pages.whole)] {
            #expect(parts.stripeCosts == expected)
            #expect(whole.stripeCosts == expected)
            #expect(parts.summary.first?.stripeCosts == 1_410)
        }
        #expect(pages.judged.ids[.balanceTransaction]?.count == 6, "the second history's ledger came page by page")
    }

    /// A history of `transactions` alone, its first day reconciled in parts and at once: the parts' report, what
    /// they judged, and the whole range's report.
    private static func reconcileADay(
        of transactions: [BalanceTransactionFacts], in backend: TestHistoryBackend
    ) async throws -> (parts: ReconciliationReport, judged: JudgedTally, whole: ReconciliationReport) {
        let folder = try TemporaryFolder()
        let store = try HistoryStore.open(try HistoryLocation(try backend.newHistory(in: folder)))
        let (from, to) = (start, start + day)
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: TimeInterval(from)), to: Date(timeIntervalSince1970: TimeInterval(to)),
            timeZone: .gmt)
        let runID = try store.runs.beginRun(
            RunStart(
                command: "extract", range: range, mode: .test, toolVersion: "test", stripeVersion: "v",
                apiBase: "http://127.0.0.1:1", startedAt: to + day, pid: 1)
        ).runID
        var batch = ObjectLists()
        batch[stored: BalanceTransactionFacts.self] = transactions.map {
            StoredObject(facts: $0, rawJSON: #"{"id":"\#($0.id)"}"#)
        }
        _ = try await store.objects.write(batch, run: runID, now: to + day)

        var session = ReconciliationSession(asOf: to, skippedTransferGrace: 0)
        var judged = JudgedTally()
        try store.parts.forEach(from: from, to: to, asOf: to, skippedTransferGrace: 0) { part in
            judged.add(part)
            session.add(part)
        }
        let whole = Reconciler.reconcile(
            try store.parts.whole(from: from, to: to, asOf: to, skippedTransferGrace: 0))
        return (session.report(), judged, whole)
    }
}

/// Which objects the parts judged, and which more than once.
private struct JudgedTally {
    var ids: [ObjectKind: Set<String>] = [
        .charge: [], .transfer: [], .applicationFee: [], .refund: [], .dispute: [], .balanceTransaction: [],
        .payout: [],
    ]
    var duplicates: [String] = []
    /// The ledger's totals the parts carried, and how many parts carried any.
    var ledgerTotals: [LedgerRow] = []
    var ledgerParts = 0

    mutating func add(_ part: ReconciliationInput) {
        ledgerTotals += part.ledgerTotals
        if !part.ledgerTotals.isEmpty { ledgerParts += 1 }
        guard let judged = part.judged else {
            duplicates.append("a part without judged objects")
            return
        }
        for kind in judged.kinds { insert(judged[kind], kind) }
    }

    private mutating func insert(_ set: Set<String>, _ kind: ObjectKind) {
        for id in set where ids[kind, default: []].insert(id).inserted == false { duplicates.append(id) }
    }
}
