import Foundation
import ReconCore
import StripeAPI
import Testing

@Test(arguments: FixtureModel.allCases)
func unknownExtraFieldsAreIgnored(model: FixtureModel) throws {
    // Given the fixture with fields Stripe might add in a later API version
    let original = try model.decodeFixture()
    let extended = try Fixture.mutated(model.fileName) { json in
        json["brand_new_field"] = ["nested": ["deeper": [1, 2, 3]], "flag": true] as [String: Any]
        json["another_new_field"] = NSNull()
        json["new_number"] = 3.25
    }

    // When it is decoded
    let decoded = try model.decode(extended)

    // Then nothing changed
    #expect(decoded.isEqual(to: original))
}

@Test func legacyChargeFieldsAreIgnored() throws {
    // Real responses still carry `dispute`, `destination` and `order` on some charges (STRIPE_NOTES §3.1).
    let original = try Fixture.decode(Charge.self, "charge")
    let data = try Fixture.mutated("charge") { json in
        json["dispute"] = "dp_legacy"
        json["destination"] = "acct_legacy"
        json["order"] = NSNull()
    }

    #expect(try StripeJSON.decode(Charge.self, from: data) == original)
}
