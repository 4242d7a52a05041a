import Foundation
import ReconCore

/// A JSON document parsed once into a flat list of its values (a "tape"), each with the byte range Stripe sent it
/// at: the models decode from it (``JSONTapeDecoder``), the history's JSON is written from it
/// (``ExpansionFolding``), and an object embedded in another is found on it, all without reading the bytes again.
///
/// The nodes are in document order. An object's node is followed by its members, each a key (a string node) and
/// then its value; an array's by its elements. Every node records where the nodes of its value end, so a member or
/// an element is skipped in one step. The parse checks the whole grammar (RFC 8259): strings and their escapes,
/// numbers, the literals, nesting; what a value means is the decoder's to judge.
///
/// It is as strict as Foundation's `JSONSerialization` and `JSONDecoder` about text: bytes that are not UTF-8
/// (overlong encodings, surrogates encoded in UTF-8, cut-short sequences, the bytes 0xC0, 0xC1 and 0xF5–0xFF, a
/// continuation byte with no lead) and `\u` surrogate escapes that are not a high one followed by a low one are a
/// ``Failure`` naming the byte offset, checked in the same pass that finds the strings' ends. Where Foundation on
/// Linux accepts what RFC 8259 forbids (a trailing comma, a byte order mark) the tape follows the RFC.
///
/// A key written twice in an object resolves to its first member, for ``member(_:of:)`` and for every model (see
/// ``TapeKeyedContainer``), as Foundation's `JSONDecoder` resolves it on Linux.
public final class JSONTape: Sendable {
    /// The document's bytes, as received.
    public let bytes: [UInt8]
    let nodes: [Node]

    /// What a node is.
    enum Kind: UInt8 {
        case object, array, string, escapedString, number, `true`, `false`, null
    }

    /// One value: its kind, its bytes (`start..<end`, quotes and brackets included) and the index of the first node
    /// after it and everything it holds.
    /// (`mayRepeatKeys` is declared beside `kind` so that a node stays 16 bytes.)
    struct Node {
        var kind: Kind
        /// For an object: whether a key may be written more than once (see ``Parser/KeySet``), so a lookup must read
        /// from the first member for the first one to win.
        var mayRepeatKeys = false
        var start: UInt32
        var end: UInt32
        var next: UInt32
    }

    /// The root value's node.
    public static let root = 0

    /// Why bytes are not a JSON document.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// The byte offset where reading stopped.
        public var offset: Int
        /// What was wrong there.
        public var reason: String

        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Parses `bytes`, which must hold exactly one JSON value (white space around it aside).
    public init(_ bytes: [UInt8]) throws(Failure) {
        guard bytes.count < Int(UInt32.max) else {
            throw Failure(offset: 0, reason: "the document is larger than 4 GiB")
        }
        self.bytes = bytes
        var parser = Parser()
        parser.nodes.reserveCapacity(bytes.count / 12 + 4)
        try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) in try parser.parseDocument(buffer) }
        nodes = parser.nodes
    }

    // MARK: - Reading the tape

    /// Whether the node at `index` is an object.
    public func isObject(_ index: Int) -> Bool { nodes[index].kind == .object }

    /// Whether the node at `index` is an array.
    public func isArray(_ index: Int) -> Bool { nodes[index].kind == .array }

    /// The bytes of the node at `index`, as sent (white space inside it included).
    public func range(of index: Int) -> Range<Int> { Int(nodes[index].start)..<Int(nodes[index].end) }

    /// The node after the value at `index` and everything it holds.
    func next(after index: Int) -> Int { Int(nodes[index].next) }

    /// The members of the object at `index`: each key's node and its value's node, in the order they are written.
    func members(of index: Int) -> MemberSequence {
        MemberSequence(tape: self, first: index + 1, end: Int(nodes[index].next))
    }

    /// The elements of the array at `index`, in order.
    public func elements(of index: Int) -> [Int] {
        var result: [Int] = []
        var element = index + 1
        let end = Int(nodes[index].next)
        while element < end {
            result.append(element)
            element = Int(nodes[element].next)
        }
        return result
    }

    /// The value of the member `name` of the object at `index`; `nil` when it has none, or is not an object.
    public func member(_ name: String, of index: Int) -> Int? {
        guard nodes[index].kind == .object else { return nil }
        for member in members(of: index) where keyEquals(member.key, name) { return member.value }
        return nil
    }

    /// Whether the key at node `key` is `name`: compared as written, or once unescaped for a key with escapes
    /// (Stripe's never need them), as `JSONDecoder` compares it.
    func keyEquals(_ key: Int, _ name: String) -> Bool {
        let node = nodes[key]
        if node.kind == .escapedString { return string(key) == name }
        let start = Int(node.start) + 1
        let count = Int(node.end) - 1 - start
        let matched = name.utf8.withContiguousStorageIfAvailable { (name) -> Bool in
            guard name.count == count else { return false }
            return bytes.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress, let other = name.baseAddress else { return count == 0 }
                return memcmp(base + start, other, count) == 0
            }
        }
        if let matched { return matched }
        return name.utf8.elementsEqual(bytes[start..<(start + count)])
    }

    /// A `true` or `false` node's value; `nil` for any other node.
    public func bool(_ index: Int) -> Bool? {
        switch nodes[index].kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// A string node's value, its escapes resolved; `nil` for any other node.
    public func string(_ index: Int) -> String? {
        let node = nodes[index]
        switch node.kind {
        case .string:
            let inner = (Int(node.start) + 1)..<(Int(node.end) - 1)
            return bytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[inner]), as: UTF8.self)
            }
        case .escapedString:
            return JSONStringEscapes.unescape(bytes[(Int(node.start) + 1)..<(Int(node.end) - 1)])
        default:
            return nil
        }
    }

    /// The first integer in the value at `index` too large for `Int64`, with the key it belongs to: the decoder only
    /// says the number is "not representable", which helps nobody find the field in a page of a hundred objects.
    public func oversizedInteger(in index: Int) -> (key: String, literal: String)? {
        var lastString = ""
        for node in index..<next(after: index) {
            switch nodes[node].kind {
            case .string, .escapedString:
                lastString = string(node) ?? ""
            case .number:
                let literal = bytes[range(of: node)]
                let integral = literal.allSatisfy {
                    ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
                }
                let fits = literal.withUnsafeBufferPointer { Int64(decimalDigits: $0) } != nil
                if integral, !fits { return (lastString, String(decoding: literal, as: UTF8.self)) }
            default:
                break
            }
        }
        return nil
    }

    /// The whole tape's JSON with the white space between tokens removed; see ``write(_:into:)``.
    public func compact(_ index: Int = root) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(Int(nodes[index].end - nodes[index].start))
        write(index, into: &output)
        return output
    }

    /// Appends the value at `index` with the white space between its tokens removed (strings are untouched).
    ///
    /// Stripe pretty-prints, and an object embedded in another is indented deeper than the same object listed on
    /// its own: written this way both are the same bytes, so a change means a change of content.
    func write(_ index: Int, into output: inout [UInt8]) {
        let node = nodes[index]
        switch node.kind {
        case .object:
            output.append(UInt8(ascii: "{"))
            var first = true
            for member in members(of: index) {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                appendBytes(of: member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .array:
            output.append(UInt8(ascii: "["))
            var element = index + 1
            while element < Int(node.next) {
                if element != index + 1 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output)
                element = Int(nodes[element].next)
            }
            output.append(UInt8(ascii: "]"))
        default:
            appendBytes(of: index, to: &output)
        }
    }

    /// Appends a scalar node's bytes (a key, a string, a number, a literal) as sent.
    func appendBytes(of index: Int, to output: inout [UInt8]) {
        let node = nodes[index]
        bytes.withUnsafeBufferPointer {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[Int(node.start)..<Int(node.end)]))
        }
    }

    /// The members of an object node, as (key, value) node pairs.
    struct MemberSequence: Sequence, IteratorProtocol {
        let tape: JSONTape
        var first: Int
        let end: Int

        mutating func next() -> (key: Int, value: Int)? {
            guard first < end else { return nil }
            let key = first
            first = Int(tape.nodes[key + 1].next)
            return (key, key + 1)
        }
    }
}
