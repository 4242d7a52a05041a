import Foundation
import ReconCore
import StripeAPI
import Testing

@Test(arguments: FixtureModel.allCases, [Int64.max, Int64.min, 0, -1])
func amountAtTheEdgesOfInt64DecodesExactly(model: FixtureModel, amount: Int64) throws {
    // Given the fixture with an extreme amount
    let data = try Fixture.mutated(model.fileName) { $0["amount"] = amount }
    #expect(String(decoding: data, as: UTF8.self).contains(#""amount":\#(amount)"#))

    // When it is decoded
    let object = try model.decode(data)

    // Then the amount is exact: no trip through a floating-point number
    #expect(object.amount == amount)
}

@Test func balanceTransactionFiguresAtTheEdgesDecodeExactly() throws {
    let data = try Fixture.mutated("balance_transaction") { json in
        json["amount"] = Int64.max
        json["fee"] = Int64.max - 1
        json["net"] = Int64.min
        json["available_on"] = Int64.max
        json["created"] = Int64.min
    }

    let transaction = try StripeJSON.decode(BalanceTransaction.self, from: data)

    #expect(transaction.amount == 9_223_372_036_854_775_807)
    #expect(transaction.fee == 9_223_372_036_854_775_806)
    #expect(transaction.net == -9_223_372_036_854_775_808)
    #expect(transaction.availableOn == .max)
    #expect(transaction.created == .min)
}

@Test func amountOneBeyondInt64Fails() throws {
    // 2^63 does not fit: it must fail, not wrap or round.
    let text = try #require(String(data: Fixture.data("refund"), encoding: .utf8))
        .replacingOccurrences(of: #""amount": 100"#, with: #""amount": 9223372036854775808"#)
    #expect(text.contains("9223372036854775808"))

    #expect(throws: DecodingError.self) { try StripeJSON.decode(Refund.self, from: Data(text.utf8)) }
}
