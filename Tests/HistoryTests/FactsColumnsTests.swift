import Foundation
import GRDB
import Testing

@testable import History
@testable import ReconCore

/// The positional mapping of facts to columns must store exactly what GRDB's `Codable` mapping stored.
struct FactsColumnsTests {
    /// GRDB's `Codable` encoding of facts: the mapping the history used before the positional one.
    struct CodableRecord<Facts: Encodable>: EncodableRecord, Encodable {
        let facts: Facts
        func encode(to encoder: any Encoder) throws { try facts.encode(to: encoder) }
    }

    static let charge = ChargeFacts(
        id: "ch_1", created: 7, currency: .usd, amount: 1000, amountCaptured: 1000, amountRefunded: 250,
        status: "succeeded", captured: true, paymentIntentID: "pi_1", transferID: nil, applicationFeeID: "fee_1",
        applicationFeeAmount: 123, transferDestination: "acct_1", transferDataAmount: nil,
        balanceTransactionID: "txn_1",
        livemode: false)

    static let dispute = DisputeFacts(
        id: "dp_1", chargeID: "ch_1", created: 9, currency: .eur, amount: 500, status: "won",
        balanceTransactionIDs: ["txn_a", "txn/b", #"txn"c\d"#])

    static let balanceTransaction = BalanceTransactionFacts(
        id: "txn_1", created: 8, currency: .jpy, amount: -1, fee: 2, net: -3, type: "charge",
        reportingCategory: "charge", sourceID: nil, exchangeRate: 1.0845, status: "pending", availableOn: 86_400)

    /// Asserts that `facts.databaseValues` are GRDB's `Codable` encoding, column by column (nil as NULL).
    func expectSameColumns<Facts: StorableFacts & Encodable>(_ facts: Facts) throws {
        let dictionary = try CodableRecord(facts: facts).databaseDictionary
        #expect(Set(dictionary.keys).isSubset(of: Set(Facts.columns)))
        #expect(Facts.columns.count == facts.databaseValues.count)
        for (column, value) in zip(Facts.columns, facts.databaseValues) {
            #expect((dictionary[column] ?? .null) == value, "\(Facts.table).\(column)")
        }
    }

    @Test("every kind's columns hold what the Codable mapping held")
    func columnsMatchCodable() throws {
        try expectSameColumns(Self.charge)
        try expectSameColumns(
            PaymentIntentFacts(
                id: "pi_1", created: 1, currency: .usd, amount: 5, applicationFeeAmount: nil,
                transferDestination: "acct",
                transferDataAmount: 4, status: "succeeded", latestChargeID: "ch_1", livemode: true))
        try expectSameColumns(
            TransferFacts(
                id: "tr_1", created: 1, currency: .usd, amount: 5, amountReversed: 1, destination: "acct",
                sourceTransactionID: "ch_1", balanceTransactionID: nil, transferGroup: "g", disputeIDMetadata: nil,
                livemode: false))
        try expectSameColumns(
            TransferReversalFacts(
                id: "trr_1", transferID: "tr_1", created: 2, currency: .usd, amount: 1, sourceRefundID: "re_1",
                balanceTransactionID: "txn_2", disputeIDMetadata: "dp_1"))
        try expectSameColumns(
            ApplicationFeeFacts(
                id: "fee_1", created: 1, currency: .bhd, amount: 1, amountRefunded: 0, originatingChargeID: "ch_1",
                accountID: "acct", balanceTransactionID: "txn_3", livemode: false))
        try expectSameColumns(
            FeeRefundFacts(id: "fr_1", feeID: "fee_1", created: 3, currency: .usd, amount: 1, balanceTransactionID: nil)
        )
        try expectSameColumns(
            RefundFacts(
                id: "re_1", chargeID: nil, created: 4, currency: .usd, amount: 1, status: nil, transferReversalID: nil,
                balanceTransactionID: "txn_4"))
        try expectSameColumns(Self.dispute)
        try expectSameColumns(Self.balanceTransaction)
        try expectSameColumns(
            PayoutFacts(
                id: "po_1", created: 5, currency: .eur, amount: 100, arrivalDate: 86_400, status: "failed",
                automatic: true, balanceTransactionID: "txn_5", failureBalanceTransactionID: "txn_6",
                failureCode: "account_closed", livemode: false))
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
        let run = try store.beginRun(
            RunStart(
                command: "extract", range: range, mode: .test, toolVersion: "t", stripeVersion: "v", apiBase: "b",
                startedAt: 1, pid: 1)
        ).runID
        var batch = ObjectBatch()
        batch.charges = [StoredObject(facts: Self.charge, rawJSON: "{}")]
        batch.disputes = [StoredObject(facts: Self.dispute, rawJSON: "{}")]
        batch.balanceTransactions = [StoredObject(facts: Self.balanceTransaction, rawJSON: "{}")]
        try await store.write(batch, run: run, now: 1)

        // When the reconciler's input is loaded, Then every fact is as written
        let input = try await store.reconciliationInput(from: 0, to: 100, asOf: 100, skippedTransferGrace: 0)
        #expect(input.charges == [Self.charge])
        #expect(input.disputes == [Self.dispute])
        #expect(input.balanceTransactions == [Self.balanceTransaction])
    }
}
