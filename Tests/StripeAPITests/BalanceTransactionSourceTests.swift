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
func sourceExpandedToAModelledTypeDecodesIntoThatModel(model: FixtureModel) throws {
    // Given a balance transaction listed with expand[]=data.source
    let data = try transactionData(source: Fixture.json(model.fileName))

    // When it is decoded
    let source = try #require(try StripeJSON.decode(BalanceTransaction.self, from: data).source)

    // Then the source is the modelled object, with its id and object type
    #expect(source.id == model.fixtureID)
    #expect(source.objectType == model.rawValue)
    let amount: Int64? =
        switch (model, source) {
        case (.charge, .charge(let object)): object.amount
        case (.transfer, .transfer(let object)): object.amount
        case (.applicationFee, .applicationFee(let object)): object.amount
        case (.refund, .refund(let object)): object.amount
        case (.dispute, .dispute(let object)): object.amount
        case (.transferReversal, .transferReversal(let object)): object.amount
        case (.feeRefund, .feeRefund(let object)): object.amount
        default: nil
        }
    #expect(amount == model.fixtureAmount)
}

@Test func sourceExpandedToAnUnknownTypeKeepsItsIDAndType() throws {
    let payout: [String: Any] = ["id": "po_1PgaxNB7WZ01zgkW", "object": "payout", "amount": 5000, "method": "standard"]
    let data = try transactionData(source: payout)

    let source = try StripeJSON.decode(BalanceTransaction.self, from: data).source

    #expect(source == .other(id: "po_1PgaxNB7WZ01zgkW", object: "payout"))
    #expect(source?.id == "po_1PgaxNB7WZ01zgkW")
    #expect(source?.objectType == "payout")
}

@Test func sourceExpandedWithoutAnObjectFieldIsKeptAsOther() throws {
    let data = try transactionData(source: ["id": "xyz_123"])

    let source = try StripeJSON.decode(BalanceTransaction.self, from: data).source

    #expect(source == .other(id: "xyz_123", object: nil))
}

@Test func sourceExpandedToAChargeWithoutAmountFails() throws {
    // An expanded object is held to its model's rules.
    var charge = try Fixture.json("charge")
    charge["amount"] = nil
    let data = try transactionData(source: charge)

    #expect(throws: DecodingError.self) { try StripeJSON.decode(BalanceTransaction.self, from: data) }
}

@Test func sourceNullOrAbsentIsNil() throws {
    let null = try StripeJSON.decode(BalanceTransaction.self, from: transactionData(source: NSNull()))
    let absent = try StripeJSON.decode(BalanceTransaction.self, from: transactionData(source: nil))

    #expect(null.source == nil)
    #expect(absent.source == nil)
}
