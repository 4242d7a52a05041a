import Foundation
import ReconCore
import StripeAPI
import Testing

/// The identity and money fields without which an object cannot be reconciled.
private let requiredKeys = ["id", "amount", "currency", "created"]

@Test(arguments: FixtureModel.allCases, requiredKeys)
func requiredFieldMissingFails(model: FixtureModel, key: String) throws {
    let data = try Fixture.mutated(model.fileName) { $0[key] = nil }

    #expect(throws: DecodingError.self) { try model.decode(data) }
}

@Test(arguments: FixtureModel.allCases, requiredKeys)
func requiredFieldNullFails(model: FixtureModel, key: String) throws {
    let data = try Fixture.mutated(model.fileName) { $0[key] = NSNull() }

    #expect(throws: DecodingError.self) { try model.decode(data) }
}

@Test(arguments: FixtureModel.allCases, ["us", "usdx", "", "u$d"])
func malformedCurrencyFails(model: FixtureModel, currency: String) throws {
    let data = try Fixture.mutated(model.fileName) { $0["currency"] = currency }

    #expect(throws: DecodingError.self) { try model.decode(data) }
}

@Test(arguments: FixtureModel.allCases)
func amountAsTextFails(model: FixtureModel) throws {
    // Stripe's amounts are JSON integers; a string or a fraction is not an amount.
    let asText = try Fixture.mutated(model.fileName) { $0["amount"] = "100" }
    let asFraction = try Fixture.mutated(model.fileName) { $0["amount"] = 100.5 }

    #expect(throws: DecodingError.self) { try model.decode(asText) }
    #expect(throws: DecodingError.self) { try model.decode(asFraction) }
}

@Test func chargeWithoutAmountFailsNamingTheField() throws {
    let data = try Fixture.mutated("charge") { $0["amount"] = nil }

    let error = try #require(throws: DecodingError.self) { try StripeJSON.decode(Charge.self, from: data) }

    guard case .keyNotFound(let key, _) = error else {
        Issue.record("expected keyNotFound, got \(error)")
        return
    }
    #expect(key.stringValue == "amount")
}

@Test func transferWithNullCurrencyFailsNamingTheField() throws {
    let data = try Fixture.mutated("transfer") { $0["currency"] = NSNull() }

    let error = try #require(throws: DecodingError.self) { try StripeJSON.decode(Transfer.self, from: data) }

    guard case .valueNotFound(_, let context) = error else {
        Issue.record("expected valueNotFound, got \(error)")
        return
    }
    #expect(context.codingPath.last?.stringValue == "currency")
}

@Test func upperCaseCurrencyIsReadAsLowerCase() throws {
    // ReconCore's Currency accepts any case and keeps Stripe's lower case.
    let data = try Fixture.mutated("refund") { $0["currency"] = "EUR" }

    #expect(try StripeJSON.decode(Refund.self, from: data).currency == .eur)
}
