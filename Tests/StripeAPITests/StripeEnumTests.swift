import Foundation
import ReconCore
import StripeAPI
import Testing

/// One of the open enums, erased so that a table can hold them all.
struct OpenEnum: Sendable, CustomTestStringConvertible {
    let name: String
    let knownRawValues: [String]
    /// Decodes a JSON text; returns the raw value, whether it is known, its description and its re-encoded JSON.
    let decodeJSON: @Sendable (String) throws -> (rawValue: String, isKnown: Bool, description: String, encoded: String)

    init<Value: StripeEnum>(_ type: Value.Type) {
        name = String(describing: type)
        knownRawValues = Value.knownValues.map(\.rawValue)
        decodeJSON = { json in
            let value = try StripeJSON.decode(Value.self, from: Data(json.utf8))
            let encoded = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
            return (value.rawValue, value.isKnown, value.description, encoded)
        }
    }

    var testDescription: String { name }

    /// Decodes the JSON string `"<raw>"`.
    func decode(_ raw: String) throws -> (rawValue: String, isKnown: Bool, description: String, encoded: String) {
        try decodeJSON("\"\(raw)\"")
    }

    static let all: [OpenEnum] = [
        OpenEnum(BalanceTransactionStatus.self), OpenEnum(BalanceTransactionType.self), OpenEnum(BalanceType.self),
        OpenEnum(CaptureMethod.self), OpenEnum(ChargeStatus.self), OpenEnum(DisputeReason.self),
        OpenEnum(DisputeStatus.self), OpenEnum(FeeDetailType.self), OpenEnum(FeeSourceType.self),
        OpenEnum(PaymentIntentStatus.self), OpenEnum(PayoutMethod.self), OpenEnum(PayoutStatus.self),
        OpenEnum(PayoutType.self), OpenEnum(RefundReason.self), OpenEnum(RefundStatus.self),
        OpenEnum(ReportRunStatus.self),
        OpenEnum(ReportingCategory.self), OpenEnum(StripeErrorType.self),
    ]
}

@Test(arguments: OpenEnum.all)
func knownValuesAreDistinctSnakeCaseStrings(openEnum: OpenEnum) {
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_")

    #expect(!openEnum.knownRawValues.isEmpty)
    #expect(Set(openEnum.knownRawValues).count == openEnum.knownRawValues.count)
    for raw in openEnum.knownRawValues {
        #expect(!raw.isEmpty && raw.allSatisfy(allowed.contains), "\(raw)")
    }
}

@Test(arguments: OpenEnum.all)
func everyKnownValueDecodesAsKnown(openEnum: OpenEnum) throws {
    for raw in openEnum.knownRawValues {
        let decoded = try openEnum.decode(raw)
        #expect(decoded.rawValue == raw)
        #expect(decoded.isKnown, "\(raw)")
        #expect(decoded.description == raw)
    }
}

@Test(arguments: OpenEnum.all)
func unknownValueDecodesToTheOpenValueAndEncodesBack(openEnum: OpenEnum) throws {
    let decoded = try openEnum.decode("something_new")

    #expect(decoded.rawValue == "something_new")
    #expect(decoded.isKnown == false)
    #expect(decoded.encoded == #""something_new""#)
}

@Test(arguments: OpenEnum.all)
func nonStringValueFails(openEnum: OpenEnum) {
    // A number or null where Stripe writes a string is not "a new value": it is a broken body.
    #expect(throws: DecodingError.self) { try openEnum.decodeJSON("1") }
    #expect(throws: DecodingError.self) { try openEnum.decodeJSON("null") }
    #expect(throws: DecodingError.self) { try openEnum.decodeJSON(#"{"value": "succeeded"}"#) }
}

@Test func openEnumValuesCompareByRawValue() {
    #expect(ChargeStatus(rawValue: "succeeded") == .succeeded)
    #expect(DisputeStatus(rawValue: "won") != .lost)
    #expect(ReportingCategory(rawValue: "transfer_reversal") == .transferReversal)
    #expect(BalanceTransactionType(rawValue: "transfer_refund") == .transferRefund)
}
