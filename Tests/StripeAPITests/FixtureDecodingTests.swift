import Foundation
import ReconCore
import StripeAPI
import Testing

@Test(arguments: FixtureModel.allCases)
func everyFixtureDecodesIntoItsModel(model: FixtureModel) throws {
    let object = try model.decodeFixture()

    #expect(object.id == model.fixtureID)
    #expect(object.amount == model.fixtureAmount)
    #expect(object.currency == .usd)
    #expect(object.created == 1_234_567_890)
}

@Test(arguments: FixtureModel.allCases)
func reserializedFixtureDecodesToAnEqualValue(model: FixtureModel) throws {
    // The variants in these tests go through JSONSerialization; this checks that alone changes nothing.
    let original = try model.decodeFixture()
    let reserialized = try model.decode(Fixture.mutated(model.fileName) { _ in })

    #expect(original.isEqual(to: reserialized))
}
