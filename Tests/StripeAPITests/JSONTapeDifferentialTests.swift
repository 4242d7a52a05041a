import Foundation
import TestSupport
import Testing

@testable import StripeAPI

// The tape against Foundation on generated documents (issue 38): both agree on which are JSON, and on what the valid
// ones hold. Where Foundation on Linux and RFC 8259 differ the generator stays out of the difference and the tape
// follows the RFC: JSONSerialization and JSONDecoder accept a trailing comma and a byte order mark, which the tape
// refuses, and JSONSerialization refuses a number beyond `Double`'s range (1e400), which the grammar allows. For
// UTF-8 and surrogate escapes the tape follows Foundation: both refuse every class generated below.

/// A way bytes fail to be UTF-8 or escapes fail to pair, as it is written inside a string.
private struct Corruption: Sendable, CustomStringConvertible {
    var description: String
    var bytes: [UInt8]
    /// What the tape's failure says (a part of its reason).
    var reason: String

    static let all: [Corruption] = [
        Corruption(description: "overlong 2-byte '/'", bytes: [0xC0, 0xAF], reason: "overlong"),
        Corruption(description: "overlong 3-byte", bytes: [0xE0, 0x80, 0xAF], reason: "overlong"),
        Corruption(description: "overlong 4-byte", bytes: [0xF0, 0x80, 0x80, 0xAF], reason: "overlong"),
        Corruption(description: "UTF-8 high surrogate", bytes: [0xED, 0xA0, 0x80], reason: "surrogate"),
        Corruption(description: "UTF-8 low surrogate", bytes: [0xED, 0xBF, 0xBF], reason: "surrogate"),
        Corruption(description: "truncated 3-byte", bytes: [0xE2, 0x82], reason: "cut short"),
        Corruption(description: "truncated 4-byte", bytes: [0xF0, 0x9F, 0x98], reason: "cut short"),
        Corruption(description: "lead byte then ASCII", bytes: [0xC3, 0x41], reason: "cut short"),
        Corruption(description: "beyond U+10FFFF", bytes: [0xF4, 0x90, 0x80, 0x80], reason: "beyond U+10FFFF"),
        Corruption(description: "byte 0xF5", bytes: [0xF5, 0x80, 0x80, 0x80], reason: "never appears"),
        Corruption(description: "byte 0xFF", bytes: [0xFF], reason: "never appears"),
        Corruption(description: "byte 0xFE", bytes: [0xFE], reason: "never appears"),
        Corruption(description: "stray continuation 0x80", bytes: [0x80], reason: "continuation"),
        Corruption(description: "stray continuation 0xBF", bytes: [0xBF], reason: "continuation"),
        Corruption(description: "lone high surrogate", bytes: Array(#"\uD83D"#.utf8), reason: "high surrogate"),
        Corruption(description: "lone low surrogate", bytes: Array(#"\uDE00"#.utf8), reason: "low surrogate"),
        Corruption(
            description: "high surrogate then a non-surrogate escape", bytes: Array(#"\uD83D\u0041"#.utf8),
            reason: "high surrogate"),
        Corruption(
            description: "high surrogate twice", bytes: Array(#"\uD83D\uD83D"#.utf8), reason: "high surrogate"),
        Corruption(description: "low then high", bytes: Array(#"\uDE00\uD83D"#.utf8), reason: "low surrogate"),
        Corruption(description: "high surrogate then text", bytes: Array(#"\uDBFFx"#.utf8), reason: "high surrogate"),
    ]
}

/// Writes random JSON documents as bytes: nested objects and arrays, every escape, characters beyond the BMP raw
/// and as surrogate pairs, numbers at the limits of `Int64` and `Double`.
private struct DocumentWriter {
    var random: SeededGenerator
    var bytes: [UInt8] = []

    static let numbers = [
        "0", "-0", "1", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1.5",
        "-2.5e-3", "1E+2", "0.1", "1.7976931348623157e308", "-1.7976931348623157e308", "5e-324",
        "2.2250738585072014e-308", "4.9406564584124654E-324", "123456789012345678901234567890",
    ]
    static let fragments = [
        "plain", "ch_3OqLx2", "Café", "日本語", "😀", "𝄞", #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#,
        #"\t"#, #"\u00e9"#, #"\u0000"#, #"\u001F"#, #"\uD83D\uDE00"#, #"\ud834\udd1e"#, #"\uDBFF\uDFFF"#,
        #"\uFFFF"#, "\u{7F}", " ", "a somewhat longer run of plain text to cross eight-byte words",
    ]

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func string() {
        append("\"")
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            append(Self.fragments.randomElement(using: &random) ?? "")
        }
        append("\"")
    }

    /// A value; objects get distinct keys, so that JSONSerialization (which keeps a repeated key's last value) and
    /// the tape (which keeps the first) mean the same object.
    mutating func value(depth: Int) {
        switch Int.random(in: 0..<(depth < 4 ? 8 : 5), using: &random) {
        case 0: append(["true", "false", "null"].randomElement(using: &random) ?? "null")
        case 1, 2: append(Self.numbers.randomElement(using: &random) ?? "0")
        case 3, 4: string()
        case 5, 6:
            append(Bool.random(using: &random) ? "{" : "{ ")
            for member in 0..<Int.random(in: 0...5, using: &random) {
                if member > 0 { append(Bool.random(using: &random) ? "," : " ,\n ") }
                append("\"k\(member)")
                append(Self.fragments.randomElement(using: &random) == "😀" ? "😀\"" : "\"")
                append(Bool.random(using: &random) ? ":" : " : ")
                value(depth: depth + 1)
            }
            append("}")
        default:
            append("[")
            for element in 0..<Int.random(in: 0...5, using: &random) {
                if element > 0 { append(",") }
                value(depth: depth + 1)
            }
            append("]")
        }
    }
}

/// Whether the value at `node` of `tape` is what JSONSerialization read.
private func matches(_ tape: JSONTape, _ node: Int, _ foundation: Any) -> Bool {
    switch tape.nodes[node].kind {
    case .object:
        guard let dictionary = foundation as? [String: Any] else { return false }
        let members = Array(tape.members(of: node))
        return members.count == dictionary.count
            && members.allSatisfy { member in
                guard let key = tape.string(member.key), let other = dictionary[key] else { return false }
                return matches(tape, member.value, other)
            }
    case .array:
        guard let array = foundation as? [Any] else { return false }
        let elements = tape.elements(of: node)
        return elements.count == array.count && zip(elements, array).allSatisfy { matches(tape, $0, $1) }
    case .string, .escapedString:
        return tape.string(node) == foundation as? String
    case .number:
        guard let number = foundation as? NSNumber else { return false }
        let literal = String(decoding: tape.bytes[tape.range(of: node)], as: UTF8.self)
        if let integer = Int64(literal) { return number.int64Value == integer }
        return Double(literal) == number.doubleValue
    case .true, .false:
        return (foundation as? Bool) == tape.bool(node)
    case .null:
        return foundation is NSNull
    }
}

/// Any JSON value, decoded through a `Decoder`'s containers: the same type read by `JSONDecoder` and by the tape.
private enum AnyJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [String: AnyJSON] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(AnyJSON.self, forKey: key) }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [AnyJSON] = []
            while !array.isAtEnd { elements.append(try array.decode(AnyJSON.self)) }
            self = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? single.decode(Int64.self) {
                self = .integer(integer)
            } else if let double = try? single.decode(Double.self) {
                self = .double(double)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// A model whose keys are read in the reverse of the order they are written, so a cursor would pass the first `a`.
private struct Repeated: Decodable, Equatable {
    var a: Int
    var b: Int

    enum CodingKeys: String, CodingKey { case a, b }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        b = try container.decode(Int.self, forKey: .b)
        a = try container.decode(Int.self, forKey: .a)
    }

    init(a: Int, b: Int) {
        self.a = a
        self.b = b
    }
}

@Suite("JSON tape against Foundation")
struct JSONTapeDifferentialTests {
    private static func documents(count: Int, seed: UInt64) -> [[UInt8]] {
        var writer = DocumentWriter(random: SeededGenerator(state: seed))
        return (0..<count).map { _ in
            writer.bytes = []
            writer.value(depth: 0)
            return writer.bytes
        }
    }

    @Test(
        "10,000 valid generated documents parse on the tape, in JSONSerialization and in JSONDecoder, to the same values"
    )
    func validDocumentsAgree() throws {
        for document in Self.documents(count: 10_000, seed: 38) {
            let text = String(decoding: document, as: UTF8.self)
            let foundation = try JSONSerialization.jsonObject(with: Data(document), options: .fragmentsAllowed)
            let tape = try JSONTape(document)
            #expect(matches(tape, JSONTape.root, foundation), "\(text)")
            let decoded = try JSONDecoder().decode(AnyJSON.self, from: Data(document))
            #expect(try JSONTapeDecoder().decode(AnyJSON.self, from: tape, at: JSONTape.root) == decoded, "\(text)")
        }
    }

    @Test("bad UTF-8 and unpaired surrogate escapes fail the tape at their byte, as they fail Foundation")
    func invalidDocumentsAgree() throws {
        var random = SeededGenerator(state: 8259)
        let valid = Self.documents(count: 40, seed: 3629)
        for corruption in Corruption.all {
            for document in valid {
                // Given a valid document with a string holding the corruption somewhere inside a value
                let prefix = Array("{\"doc\":".utf8) + document + Array(",\"bad\":[\"before ".utf8)
                let offset = prefix.count + Int.random(in: 0...1, using: &random)
                let bytes =
                    prefix + (offset > prefix.count ? [UInt8(ascii: "x")] : []) + corruption.bytes
                    + Array(" after\"]}".utf8)
                // Then every parser refuses it, and the tape says what and where
                #expect(throws: (any Error).self, "\(corruption)") {
                    try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
                }
                #expect(throws: (any Error).self, "\(corruption)") {
                    try JSONDecoder().decode(AnyJSON.self, from: Data(bytes))
                }
                let failure = #expect(throws: JSONTape.Failure.self, "\(corruption)") { try JSONTape(bytes) }
                #expect(failure?.offset == offset, "\(corruption): \(failure?.description ?? "")")
                #expect(failure?.reason.contains(corruption.reason) == true, "\(failure?.description ?? "")")
            }
        }
    }

    @Test(
        "a key written twice resolves to its first value whatever order a model reads keys in, as JSONDecoder does",
        arguments: [
            #"{"a":1,"b":2,"a":3}"#, #"{"b":2,"a":1,"a":3}"#, #"{"a":1,"a":3,"b":2}"#, #"{"a":1,"b":2,"\u0061":3}"#,
            #"{"b":2,"a":1,"b":5,"a":3}"#, #"{"x":0,"a":1,"y":0,"b":2,"z":{"a":9},"a":3}"#,
        ])
    func repeatedKeysKeepTheFirst(document: String) throws {
        let data = Data(document.utf8)
        let foundation = try JSONDecoder().decode(Repeated.self, from: data)
        #expect(foundation == Repeated(a: 1, b: 2))
        #expect(try JSONTapeDecoder().decode(Repeated.self, from: data) == foundation)
        let tape = try JSONTape(Array(data))
        #expect(tape.member("a", of: JSONTape.root).map { Array(tape.bytes[tape.range(of: $0)]) } == [0x31])
        // JSONSerialization differs on Linux: it keeps the last value (3).
        let serialized = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect((serialized?["a"] as? NSNumber)?.intValue == 3)
    }

    @Test("a client error for bytes that are not UTF-8 names what was wrong and the byte offset")
    func malformedResponseDetail() throws {
        let data = Data([UInt8](#"{"id":"ch_"#.utf8) + [0xC0, 0xAF] + Array("\"}".utf8))
        let error = #expect(throws: DecodingError.self) { try JSONTapeDecoder().decode(Repeated.self, from: data) }
        let detail = StripeJSON.describe(try #require(error))
        #expect(detail == "not JSON: invalid UTF-8 in a string: an overlong encoding (lead byte 0xC0) at byte 10")
    }
}
