import Foundation
import StripeAPI
import Testing

@Test func decoderDoesNotConvertSnakeCaseKeys() throws {
    // Given a type that relies on its own property names, with no CodingKeys
    struct CamelCase: Decodable {
        let hasMore: Bool?
    }

    // When snake_case JSON is decoded with the shared decoder
    let decoded = try StripeJSON.decoder().decode(CamelCase.self, from: Data(#"{"has_more": true}"#.utf8))

    // Then the key is not mapped: models must spell out their CodingKeys
    #expect(decoded.hasMore == nil)
}

@Test func decoderRejectsJSON5() {
    let json5 = Data(#"{amount: 100, "currency": 'usd',}"#.utf8)

    #expect(throws: (any Error).self) { try StripeJSON.decode([String: String].self, from: json5) }
}
