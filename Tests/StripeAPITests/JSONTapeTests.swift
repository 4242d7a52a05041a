import Foundation
import ReconCore
import StripeAPI
import Testing

// The tape is the only parse of Stripe's responses (issue 29): it must accept what JSON is, refuse what it is not,
// and decode the models to the same values Foundation's JSONDecoder gave before it.

/// Foundation's decoder with the settings the models were decoded with before the tape.
private func foundationDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = false
    return decoder
}

@Suite("JSON tape")
struct JSONTapeTests {
    @Test(
        "documents JSON allows parse, whatever their white space and escapes",
        arguments: [
            #"{}"#, #"[]"#, #" { "a" : [ 1 , -2.5e+3 , 0 , 0.0 , 1E-2 ] } "#, #""text""#, "true", "false", "null", "-0",
            #"{"a":{"b":{"c":[[],{}]}}}"#, #"["\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"]"#, "\t[\r\n1]\n",
        ])
    func acceptsJSON(document: String) throws {
        #expect(throws: Never.self) { try JSONTape(Array(document.utf8)) }
        #expect((try? JSONSerialization.jsonObject(with: Data(document.utf8), options: .fragmentsAllowed)) != nil)
    }

    @Test(
        "documents JSON does not allow are refused with the place they go wrong",
        arguments: [
            "", " ", "{", "[1,]", #"{"a":1,}"#, #"{"a" 1}"#, "{a:1}", "[1 2]", "01", "1.", ".5", "-", "1e", "+1",
            "tru", "nul", #""unterminated"#, "\"tab\there\"", #""\x""#, #""\u12""#, "[1]]", "{} {}", "'single'",
            "NaN",
        ])
    func refusesWhatIsNotJSON(document: String) {
        // RFC 8259's grammar; Foundation's JSONSerialization accepts the trailing commas, Stripe never sends them.
        #expect(throws: JSONTape.Failure.self) { try JSONTape(Array(document.utf8)) }
    }

    @Test("nesting deeper than any Stripe object is refused rather than exhausting the stack")
    func deepNestingIsRefused() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONTape.Failure.self) { try JSONTape(Array(deep.utf8)) }
    }

    @Test("compacting removes the white space between tokens and none inside strings")
    func compactKeepsStrings() throws {
        let pretty = "{\n  \"a b\" : [ 1 ,\t\"x  y\\\" z\" ],\n  \"c\": { }\n}"
        let tape = try JSONTape(Array(pretty.utf8))
        #expect(String(decoding: tape.compact(), as: UTF8.self) == #"{"a b":[1,"x  y\" z"],"c":{}}"#)
    }

    @Test("a member is found by name, its nodes give its exact bytes, and a missing one is nil")
    func membersAndElements() throws {
        let json = #"{"id":"ch_1","refunds":{"data":[{"id":"re_1"},{"id":"re_2"}]},"n":null}"#
        let tape = try JSONTape(Array(json.utf8))
        let refunds = try #require(tape.member("refunds", of: JSONTape.root))
        let data = try #require(tape.member("data", of: refunds))
        let ids = tape.elements(of: data).compactMap { tape.member("id", of: $0).flatMap(tape.string) }
        #expect(ids == ["re_1", "re_2"])
        #expect(tape.member("missing", of: JSONTape.root) == nil)
        #expect(tape.member("id", of: try #require(tape.member("id", of: JSONTape.root))) == nil)
        #expect(String(decoding: tape.bytes[tape.range(of: data)], as: UTF8.self) == #"[{"id":"re_1"},{"id":"re_2"}]"#)
    }

    @Test("every fixture decodes to the same model through the tape as through Foundation's JSONDecoder")
    func fixturesDecodeAsFoundationDecodes() throws {
        func same<Model: StripeObject>(_ type: Model.Type, _ name: String) throws {
            let data = try Fixture.data(name)
            let tape = try StripeJSON.decoder().decode(type, from: data)
            let foundation = try foundationDecoder().decode(type, from: data)
            #expect(tape == foundation, "\(name)")
        }
        try same(Charge.self, "charge")
        try same(PaymentIntent.self, "payment_intent")
        try same(ApplicationFee.self, "application_fee")
        try same(FeeRefund.self, "fee_refund")
        try same(Transfer.self, "transfer")
        try same(TransferReversal.self, "transfer_reversal")
        try same(BalanceTransaction.self, "balance_transaction")
        try same(Dispute.self, "dispute")
        try same(Refund.self, "refund")
    }

    private struct Values: Decodable, Equatable {
        var text: String?
        var number: Int64?
        var rate: Double?
        var flag: Bool?
        var list: [Int64]?
        var map: [String: String]?
    }

    @Test(
        "scalars decode as Foundation decodes them, and what Foundation refuses is refused",
        arguments: [
            #"{"text":"caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \n"}"#, #"{"text":"plain"}"#,
            #"{"number":9223372036854775807}"#,
            #"{"number":-9223372036854775808}"#, #"{"number":9223372036854775808}"#, #"{"number":1.5}"#,
            #"{"number":"12"}"#, #"{"number":-0}"#, #"{"rate":0.9123456789}"#, #"{"rate":12}"#, #"{"rate":1e400}"#,
            #"{"flag":true}"#, #"{"flag":1}"#, #"{"list":[1,2,3]}"#, #"{"list":[1,null]}"#,
            #"{"map":{"k":"v","é":"\u0041"}}"#, #"{"map":{"k":1}}"#, #"{"text":null,"number":null}"#, #"[]"#,
            #"{"text":"a","text":"b"}"#,
        ])
    func scalarsDecodeAsFoundation(document: String) {
        let data = Data(document.utf8)
        let tape = Result { try StripeJSON.decoder().decode(Values.self, from: data) }
        let foundation = Result { try foundationDecoder().decode(Values.self, from: data) }
        switch (tape, foundation) {
        case (.success(let mine), .success(let theirs)): #expect(mine == theirs)
        case (.failure, .failure): break
        case (.success(let mine), .failure(let error)): Issue.record("tape decoded \(mine); Foundation: \(error)")
        case (.failure(let error), .success(let theirs)): Issue.record("Foundation decoded \(theirs); tape: \(error)")
        }
    }

    @Test("a missing member, a null and a wrong type are named by their path, as Foundation names them")
    func errorsNameThePath() throws {
        var charge = try Fixture.json("charge")
        charge["refunds"] =
            [
                "object": "list", "url": "/v1/refunds", "has_more": false,
                "data": [try Fixture.json("refund"), try Fixture.json("refund")],
            ] as [String: Any]
        func describe(_ change: (inout [String: Any]) -> Void) throws -> String {
            var json = charge
            change(&json)
            let data = try JSONSerialization.data(withJSONObject: json)
            do {
                _ = try StripeJSON.decoder().decode(Charge.self, from: data)
                return "decoded"
            } catch {
                return StripeJSON.describe(error)
            }
        }
        #expect(try describe { $0["amount"] = nil } == "missing 'amount' at the top level")
        #expect(try describe { $0["created"] = NSNull() } == "null where a value is required at created")
        #expect(try describe { $0["captured"] = "yes" }.hasSuffix("at captured"))
        let nested = try describe { json in
            var refunds = json["refunds"] as? [String: Any] ?? [:]
            var data = refunds["data"] as? [[String: Any]] ?? []
            data[1]["amount"] = "ten"
            refunds["data"] = data
            json["refunds"] = refunds
        }
        #expect(nested.hasSuffix("at refunds.data.Index 1.amount"))
    }
}
