import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// Payouts in the history: the v5 migration, the links `?payout=` stores, the reconcile's input and the
/// follow-up that lists a payout's balance transactions once per run.
@Suite("History store: payouts")
struct PayoutHistoryTests {
    static let from: Int64 = 1_795_132_800
    static let to: Int64 = from + 86_400

    static let payout = PayoutFacts(
        id: "po_1", created: from + 6 * 3_600, currency: .usd, amount: 1_000, arrivalDate: to + 86_400,
        status: "in_transit", automatic: true, balanceTransactionID: "txn_po", failureBalanceTransactionID: nil,
        failureCode: nil, livemode: false)

    static func transaction(_ id: String, created: Int64, net: Int64, source: String) -> BalanceTransactionFacts {
        BalanceTransactionFacts(
            id: id, created: created, currency: .usd, amount: net, fee: 0, net: net, type: "charge",
            reportingCategory: "charge", sourceID: source, exchangeRate: nil, status: "available",
            availableOn: created + 3_600)
    }

    /// The payout, its own balance transaction, and one transaction from before the range it paid out, linked.
    static func batch() -> ObjectLists {
        var batch = ObjectLists()
        batch[stored: PayoutFacts.self] = [StoredObject(facts: payout, rawJSON: #"{"id":"po_1","object":"payout"}"#)]
        let own = transaction("txn_po", created: payout.created, net: -1_000, source: "po_1")
        let older = transaction("txn_old", created: from - 86_400, net: 1_000, source: "ch_old")
        batch[stored: BalanceTransactionFacts.self] = [own, older].map {
            StoredObject(facts: $0, rawJSON: #"{"id":"\#($0.id)"}"#)
        }
        batch.payoutTransactions = [own, older].map {
            PayoutTransactionLink(payoutID: "po_1", balanceTransactionID: $0.id)
        }
        return batch
    }

    @Test("a history of schema v4 gets the payout tables and its balance transactions' available_on")
    func migrationToV5() throws {
        // Given a history written before payouts
        let database = try TemporaryDatabase()
        try GRDBTestAccess.createVersion4History(database.path)

        // When this version opens it
        let store = try HistoryStore.open(path: database.path)

        // Then the stored transaction's available_on comes from its raw JSON, and the payout tables exist
        let input = try store.objects.facts(BalanceTransactionFacts.self, createdFrom: 0, to: 100)
        #expect(input.map(\.availableOn) == [172_800])
        #expect(try GRDBTestAccess.columns(database.path, table: "payouts_raw") == ["id", "raw"])
        #expect(
            try GRDBTestAccess.columns(database.path, table: "payout_transactions") == [
                "payout_id", "balance_transaction_id", "first_seen_run", "last_seen_run",
            ])
        #expect(try store.objects.count(of: .payout) == 0)
    }

    @Test(
        "a payout, its transactions and their links are stored once and are the reconcile's input, on PostgreSQL",
        .postgreSQLServer)
    func payoutsAreTheReconcilesInputOnPostgreSQL() async throws {
        try await payoutsAreTheReconcilesInput(backend: .postgreSQL)
    }

    @Test(
        "a payout, its transactions and their links are stored once and are the reconcile's input",
        arguments: [TestHistoryBackend.sqlite])
    func payoutsAreTheReconcilesInput(backend: TestHistoryBackend) async throws {
        // Given a run that stored a payout with what ?payout= listed, twice
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start(from: Self.from, to: Self.to)).runID
        let first = try await store.objects.write(Self.batch(), run: run, now: Self.to)
        let second = try await store.objects.write(Self.batch(), run: run, now: Self.to)
        #expect(first == WriteOutcome(new: 3))
        #expect(second == WriteOutcome())

        // When the range's input is read, at once and in parts
        let input = try store.parts.whole(
            from: Self.from, to: Self.to, asOf: Self.to, skippedTransferGrace: 0)
        var parts: [ReconciliationInput] = []
        try store.parts.forEach(from: Self.from, to: Self.to, asOf: Self.to, skippedTransferGrace: 0) {
            parts.append($0)
        }

        // Then it holds the payout, each link once, and the transaction from before the range it paid out
        #expect(input.payouts == [Self.payout])
        #expect(input.payoutTransactions.map(\.balanceTransactionID) == ["txn_old", "txn_po"])
        #expect(Set(input.balanceTransactions.map(\.id)) == ["txn_old", "txn_po"])
        #expect(try store.objects.rawJSON(of: .payout, id: "po_1") == #"{"id":"po_1","object":"payout"}"#)
        let payoutParts = parts.filter { !($0.judged?[.payout].isEmpty ?? true) }
        #expect(payoutParts.count == 1)
        #expect(payoutParts.first?.payouts == [Self.payout])
        #expect(Set(payoutParts.first?.balanceTransactions.map(\.id) ?? []) == ["txn_old", "txn_po"])
    }

    @Test(
        "a payout's transactions are listed once per run: needed until the listing is recorded, on PostgreSQL",
        .postgreSQLServer)
    func payoutListingIsAFollowUpOnPostgreSQL() async throws {
        try await payoutListingIsAFollowUp(backend: .postgreSQL)
    }

    @Test(
        "a payout's transactions are listed once per run: needed until the listing is recorded",
        arguments: [TestHistoryBackend.sqlite])
    func payoutListingIsAFollowUp(backend: TestHistoryBackend) async throws {
        // Given a run that stored the range's payout
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start(from: Self.from, to: Self.to)).runID
        var batch = ObjectLists()
        batch[stored: PayoutFacts.self] = Self.batch()[stored: PayoutFacts.self]
        try await store.objects.write(batch, run: run, now: Self.to)

        // When the follow-ups are asked for before and after its listing is recorded
        let before = try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [run])
        try await store.gaps.recordPayoutListing(payoutID: "po_1", run: run)
        let after = try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [run])
        let nextRun = try store.runs.beginRun(start(from: Self.from, to: Self.to)).runID
        try await store.objects.write(batch, run: nextRun, now: Self.to)
        let nextRunNeeds = try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [nextRun])

        // Then the payout's list is needed, then not, then again in the next run
        #expect(before.payoutTransactionLists == ["po_1"])
        #expect(after.payoutTransactionLists.isEmpty)
        #expect(nextRunNeeds.payoutTransactionLists == ["po_1"])
    }

    @Test(
        "a payout Stripe is still reconciling has its list read only once a run sees it completed, on PostgreSQL",
        .postgreSQLServer)
    func inProgressPayoutListIsReadOnceCompletedOnPostgreSQL() async throws {
        try await inProgressPayoutListIsReadOnceCompleted(backend: .postgreSQL)
    }

    @Test(
        "a payout Stripe is still reconciling has its list read only once a run sees it completed",
        arguments: [TestHistoryBackend.sqlite])
    func inProgressPayoutListIsReadOnceCompleted(backend: TestHistoryBackend) async throws {
        // Given a run that stored the range's payout while Stripe was still reconciling it
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start(from: Self.from, to: Self.to)).runID
        var payout = Self.payout
        payout.reconciliationStatus = "in_progress"
        var batch = ObjectLists()
        batch[stored: PayoutFacts.self] = [
            StoredObject(facts: payout, rawJSON: #"{"id":"po_1","reconciliation_status":"in_progress"}"#)
        ]
        try await store.objects.write(batch, run: run, now: Self.to)
        let whileInProgress = try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [run])

        // When the next run sees it completed
        let nextRun = try store.runs.beginRun(start(from: Self.from, to: Self.to)).runID
        payout.reconciliationStatus = "completed"
        batch[stored: PayoutFacts.self] = [
            StoredObject(facts: payout, rawJSON: #"{"id":"po_1","reconciliation_status":"completed"}"#)
        ]
        try await store.objects.write(batch, run: nextRun, now: Self.to)
        let onceCompleted = try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [nextRun])

        // Then its partial list is not read; the complete one is, and the stored status is the latest
        #expect(whileInProgress.payoutTransactionLists.isEmpty)
        #expect(onceCompleted.payoutTransactionLists == ["po_1"])
        let stored = try store.objects.facts(PayoutFacts.self, createdFrom: Self.from, to: Self.to)
        #expect(stored.map(\.reconciliationStatus) == ["completed"])
    }

    @Test(
        "on PostgreSQL the parts hold at most a part of rows at once, at two range lengths, a long payout included",
        .postgreSQLServer)
    func postgreSQLReadsRowByRow() async throws {
        // Given a PostgreSQL history with a payout a day, each of which paid out 60 balance transactions
        let database = try TemporaryDatabase(.postgreSQL)
        let store = try database.open()
        let run = try store.runs.beginRun(start(from: Self.from, to: Self.to + 86_400)).runID
        for day in 0..<2 {
            let created = Self.from + Int64(day) * 86_400 + 6 * 3_600
            var batch = ObjectLists()
            let payout = "po_\(day)"
            var facts = Self.payout
            facts.id = payout
            facts.created = created
            facts.status = "paid"
            facts.reconciliationStatus = "completed"
            facts.balanceTransactionID = nil
            batch[stored: PayoutFacts.self] = [StoredObject(facts: facts, rawJSON: #"{"id":"\#(payout)"}"#)]
            let paidOut = (0..<60).map {
                Self.transaction("txn_\(day)_\($0)", created: created - 3_600 + Int64($0), net: 10, source: "ch_\($0)")
            }
            batch[stored: BalanceTransactionFacts.self] = paidOut.map {
                StoredObject(facts: $0, rawJSON: #"{"id":"\#($0.id)"}"#)
            }
            batch.payoutTransactions = paidOut.map {
                PayoutTransactionLink(payoutID: payout, balanceTransactionID: $0.id)
            }
            try await store.objects.write(batch, run: run, now: Self.to + 86_400)
        }

        // When one day, then both, are read in parts of 7
        for days in [1, 2] {
            let watch = PostgreSQLConnection.ResultWatch()
            var transactions = 0
            try PostgreSQLConnection.$resultWatch.withValue(watch) {
                try store.parts.forEach(
                    from: Self.from, to: Self.from + Int64(days) * 86_400, asOf: Self.to + 86_400,
                    skippedTransferGrace: 0, chargesPerPart: 7
                ) { part in
                    if !part.payouts.isEmpty { transactions += part.balanceTransactions.count }
                }
            }

            // Then every paid-out transaction was read, yet no result held more rows than a part (one at a time)
            #expect(transactions == 60 * days)
            #expect((1...7).contains(watch.largestResultRows), "\(days) days: \(watch.largestResultRows) rows at once")
        }
    }
}
