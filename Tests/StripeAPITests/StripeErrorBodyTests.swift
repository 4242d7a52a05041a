import Foundation
import ReconCore
import StripeAPI
import Testing

@Test func errorBodyWithOnlyTypeDecodes() throws {
    let data = Data(#"{"error": {"type": "api_error"}}"#.utf8)

    let body = try StripeJSON.decode(StripeErrorBody.self, from: data)

    #expect(body.type == .apiError)
    #expect(body.code == nil)
    #expect(body.declineCode == nil)
    #expect(body.docURL == nil)
    #expect(body.message == nil)
    #expect(body.param == nil)
    #expect(body.requestLogURL == nil)
}

@Test func errorBodyWithAllFieldsDecodes() throws {
    let data = Data(
        #"""
        {"error": {
          "type": "invalid_request_error",
          "code": "resource_missing",
          "decline_code": "generic_decline",
          "doc_url": "https://docs.stripe.com/error-codes/resource-missing",
          "message": "No such charge: 'ch_123'",
          "param": "id",
          "request_log_url": "https://dashboard.stripe.com/test/logs/req_abc?t=1234567890",
          "charge": "ch_123",
          "unknown_extra": {"nested": true}
        }}
        """#.utf8)

    let body = try StripeJSON.decode(StripeErrorBody.self, from: data)

    #expect(body.type == .invalidRequestError)
    #expect(body.code == "resource_missing")
    #expect(body.declineCode == "generic_decline")
    #expect(body.docURL == "https://docs.stripe.com/error-codes/resource-missing")
    #expect(body.message == "No such charge: 'ch_123'")
    #expect(body.param == "id")
    #expect(body.requestLogURL == "https://dashboard.stripe.com/test/logs/req_abc?t=1234567890")
}

@Test func errorBodyWithNullOptionalFieldsDecodes() throws {
    let data = Data(#"{"error": {"type": "card_error", "code": null, "message": null}}"#.utf8)

    let body = try StripeJSON.decode(StripeErrorBody.self, from: data)

    #expect(body.type == .cardError)
    #expect(body.code == nil)
    #expect(body.message == nil)
}

@Test func errorBodyWithUnknownTypeDecodesToTheOpenValue() throws {
    let data = Data(#"{"error": {"type": "rate_limit_error", "message": "Too many requests"}}"#.utf8)

    let body = try StripeJSON.decode(StripeErrorBody.self, from: data)

    #expect(body.type.rawValue == "rate_limit_error")
    #expect(body.type.isKnown == false)
    #expect(body.message == "Too many requests")
}

@Test(arguments: [
    #"{"error": {"message": "no type"}}"#,
    #"{"error": {"type": null}}"#,
    #"{"message": "not an error body"}"#,
    #"{"error": "a string"}"#,
])
func errorBodyWithoutATypeFails(json: String) {
    #expect(throws: DecodingError.self) { try StripeJSON.decode(StripeErrorBody.self, from: Data(json.utf8)) }
}
