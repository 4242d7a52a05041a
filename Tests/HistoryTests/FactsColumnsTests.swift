import Foundation
import GRDB
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// Each kind's facts map to its table's columns in one place, ``StorableFacts``: the columns it names are exactly
/// the table's as the shipped migrations built it (besides the runs that saw the row), and every value comes back
/// from its row as written.
struct FactsColumnsTests {
    static let charge = ChargeFacts(
        id: "ch_1", created: 7, currency: .usd, amount: 1000, amountCaptured: 1000, amountRefunded: 250,
        status: "succeeded", captured: true, paymentIntentID: "pi_1", transferID: nil, applicationFeeID: "fee_1",
        applicationFeeAmount: 123, destinationAccountID: "acct_1", transferDataAmount: nil,
        balanceTransactionID: "txn_1",
        livemode: false)

    static let dispute = DisputeFacts(
        id: "dp_1", chargeID: "ch_1", created: 9, currency: .eur, amount: 500, status: "won",
        balanceTransactionIDs: ["txn_a", "txn/b", #"txn"c\d"#])

    static let balanceTransaction = BalanceTransactionFacts(
        id: "txn_1", created: 8, currency: .jpy, amount: -1, fee: 2, net: -3, type: "charge",
        reportingCategory: "charge", sourceID: nil, exchangeRate: 1.0845, status: "pending", availableOn: 86_400,
        balanceType: "refund_and_dispute_prefunding")

    /// Asserts that `Facts.columns` are the columns of its table in a history migrated to the latest schema, less
    /// the runs that saw each row, and that the facts give one value per column.
    func expectTableColumns<Facts: StorableFacts>(_ type: Facts.Type, _ sample: Facts) throws {
        let queue = try DatabaseQueue()
        try HistoryMigrations.migrator.migrate(queue)
        let table = try queue.read { db in try db.columns(in: Facts.table).map(\.name) }
        let runs: Set<String> = ["first_seen_run", "last_seen_run", "changed_run"]
        #expect(Set(Facts.columns) == Set(table).subtracting(runs), "\(Facts.table)")
        #expect(Facts.columns.count == Set(Facts.columns).count, "\(Facts.table): a column named twice")
        #expect(Facts.columns.count == sample.sqlValues.count, "\(Facts.table)")
    }

    @Test("every kind's columns are its table's columns, each named once")
    func columnsAreTheTables() throws {
        try expectTableColumns(ChargeFacts.self, Self.charge)
        try expectTableColumns(
            PaymentIntentFacts.self,
            PaymentIntentFacts(
                id: "pi_1", created: 1, currency: .usd, amount: 5, applicationFeeAmount: nil,
                destinationAccountID: "acct", transferDataAmount: 4, status: "succeeded", latestChargeID: "ch_1",
                livemode: true))
        try expectTableColumns(
            TransferFacts.self,
            TransferFacts(
                id: "tr_1", created: 1, currency: .usd, amount: 5, amountReversed: 1, destinationAccountID: "acct",
                sourceTransactionID: "ch_1", balanceTransactionID: nil, transferGroup: "g", disputeIDMetadata: nil,
                livemode: false))
        try expectTableColumns(
            TransferReversalFacts.self,
            TransferReversalFacts(
                id: "trr_1", transferID: "tr_1", created: 2, currency: .usd, amount: 1, sourceRefundID: "re_1",
                balanceTransactionID: "txn_2", disputeIDMetadata: "dp_1"))
        try expectTableColumns(
            ApplicationFeeFacts.self,
            ApplicationFeeFacts(
                id: "fee_1", created: 1, currency: .bhd, amount: 1, amountRefunded: 0, originatingChargeID: "ch_1",
                accountID: "acct", balanceTransactionID: "txn_3", livemode: false))
        try expectTableColumns(
            FeeRefundFacts.self,
            FeeRefundFacts(id: "fr_1", feeID: "fee_1", created: 3, currency: .usd, amount: 1, balanceTransactionID: nil)
        )
        try expectTableColumns(
            RefundFacts.self,
            RefundFacts(
                id: "re_1", chargeID: nil, created: 4, currency: .usd, amount: 1, status: "failed",
                transferReversalID: "trr_1", balanceTransactionID: "txn_4", failureBalanceTransactionID: "txn_9",
                failureReason: "lost_or_stolen_card"))
        try expectTableColumns(DisputeFacts.self, Self.dispute)
        try expectTableColumns(BalanceTransactionFacts.self, Self.balanceTransaction)
        try expectTableColumns(
            PayoutFacts.self,
            PayoutFacts(
                id: "po_1", created: 5, currency: .eur, amount: 100, arrivalDate: 86_400, status: "failed",
                automatic: true, balanceTransactionID: "txn_5", failureBalanceTransactionID: "txn_6",
                failureCode: "account_closed", livemode: false, reconciliationStatus: "in_progress"))
    }

    @Test("every column the catalogue names is a column of the kind's table, and every kind has its table")
    func catalogueColumnsAreTheTables() throws {
        let queue = try DatabaseQueue()
        try HistoryMigrations.migrator.migrate(queue)
        for kind in ObjectKind.allCases {
            let entry = kind.entry
            let columns = Set(try queue.read { db in try db.columns(in: entry.table).map(\.name) })
            let raw = try queue.read { db in try db.tableExists(entry.table + "_raw") }
            #expect(!columns.isEmpty && raw, "\(kind): no table \(entry.table) with its _raw beside it")
            for column in (entry.references + entry.arrays).compactMap(\.column) {
                #expect(columns.contains(column), "\(kind): \(column) is not a column of \(entry.table)")
            }
        }
    }

    @Test(
        "id lists are written as JSONEncoder writes them and read back",
        arguments: [
            [], ["txn_1"], ["txn_1", "txn_2"], ["a/b", #"q"uote"#, "back\\slash", "tab\tnew\nline\u{1}", "é✓"],
        ])
    func idLists(ids: [String]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let expected = String(decoding: try encoder.encode(ids), as: UTF8.self)
        #expect(IDList.json(ids) == expected)
        #expect(try IDList.ids(expected) == ids)
        #expect(try IDList.ids(#"[ "a" , "b" ]"#) == ["a", "b"])
    }

    @Test("a malformed stored value is an error, not a crash")
    func malformedValues() throws {
        #expect(throws: FactsColumnError.self) { try IDList.ids("not json") }
        #expect(throws: FactsColumnError.self) { try IDList.ids(#"["a","#) }
    }

    @Test("facts of every shape come back from their rows unchanged")
    func roundTrip() async throws {
        // Given a history holding a charge, a dispute with escaped ids and a balance transaction
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try HistoryStore.open(path: folder.appendingPathComponent("h.sqlite").path)
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 100),
            timeZone: try #require(TimeZone(identifier: "UTC")))
        let run = try store.runs.beginRun(
            RunStart(
                command: "extract", range: range, mode: .test, toolVersion: "t", stripeVersion: "v", apiBase: "b",
                startedAt: 1, pid: 1)
        ).runID
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = [StoredObject(facts: Self.charge, rawJSON: "{}")]
        batch[stored: DisputeFacts.self] = [StoredObject(facts: Self.dispute, rawJSON: "{}")]
        batch[stored: BalanceTransactionFacts.self] = [StoredObject(facts: Self.balanceTransaction, rawJSON: "{}")]
        try await store.objects.write(batch, run: run, now: 1)

        // When the reconciler's input is loaded, Then every fact is as written
        let input = try store.parts.whole(from: 0, to: 100, asOf: 100, skippedTransferGrace: 0)
        #expect(input.charges == [Self.charge])
        #expect(input.disputes == [Self.dispute])
        #expect(input.balanceTransactions == [Self.balanceTransaction])
    }
}
