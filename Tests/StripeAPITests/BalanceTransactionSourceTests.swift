import Foundation
import ReconCore
import StripeAPI
import Testing

/// Replaces the fixture balance transaction's `source` with `source`.
private func transactionData(source: Any?) throws -> Data {
    try Fixture.mutated("balance_transaction") { $0["source"] = source }
}

@Test(arguments: [
    FixtureModel.charge, .transfer, .applicationFee, .refund, .dispute, .transferReversal, .feeRefund,
])
func sourceExpandedToAnObjectKeepsItsIDAndType(model: FixtureModel) throws {
    // Given a balance transaction listed with expand[]=data.source
    let data = try transactionData(source: Fixture.json(model.fileName))

    // When it is decoded
    let source = try #require(try StripeJSON.decode(BalanceTransaction.self, from: data).source)

    // Then the source is the object's id and type, as for an id sent alone
    #expect(source == BalanceTransactionSource(id: model.fixtureID, objectType: model.rawValue))
}

@Test func sourceExpandedToATypeNotModelledKeepsItsIDAndType() throws {
    let payout: [String: Any] = ["id": "po_1PgaxNB7WZ01zgkW", "object": "payout", "amount": 5000, "method": "standard"]
    let data = try transactionData(source: payout)

    let source = try StripeJSON.decode(BalanceTransaction.self, from: data).source

    #expect(source == BalanceTransactionSource(id: "po_1PgaxNB7WZ01zgkW", objectType: "payout"))
}

@Test func sourceExpandedWithoutAnObjectFieldKeepsItsID() throws {
    let data = try transactionData(source: ["id": "xyz_123"])

    let source = try StripeJSON.decode(BalanceTransaction.self, from: data).source

    #expect(source == BalanceTransactionSource(id: "xyz_123"))
}

@Test func sourceExpandedWithoutAnIDFails() throws {
    let data = try transactionData(source: ["object": "charge", "amount": 100])

    #expect(throws: DecodingError.self) { try StripeJSON.decode(BalanceTransaction.self, from: data) }
}

@Test func sourceNullOrAbsentIsNil() throws {
    let null = try StripeJSON.decode(BalanceTransaction.self, from: transactionData(source: NSNull()))
    let absent = try StripeJSON.decode(BalanceTransaction.self, from: transactionData(source: nil))

    #expect(null.source == nil)
    #expect(absent.source == nil)
}

@Test func aCollectionTransferSourceNamesTheAccountCollectedFor() throws {
    // Given a connect_collection_transfer balance transaction retrieved with expand[]=source, its destination an id or
    // the account expanded, and a transfer's source, whose destination is no collection's
    let account = "acct_1RlAGqPnLlHhkn0m"
    let destinations: [Any] = [account, ["id": account, "object": "account"]]
    for destination in destinations {
        let collection: [String: Any] = [
            "id": "connct_1", "object": "connect_collection_transfer", "amount": 5000, "currency": "usd",
            "destination": destination, "livemode": false,
        ]
        let source = try StripeJSON.decode(BalanceTransaction.self, from: transactionData(source: collection)).source
        #expect(
            source
                == BalanceTransactionSource(
                    id: "connct_1", objectType: "connect_collection_transfer", destination: account))
    }
    let transfer = try StripeJSON.decode(
        BalanceTransaction.self, from: transactionData(source: Fixture.json("transfer"))
    ).source
    #expect(transfer?.destination == nil)
}
