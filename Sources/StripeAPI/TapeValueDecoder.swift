/// The `Decoder` of one value on a ``JSONTape`` (see ``JSONTapeDecoder``): its containers read the value's node,
/// and a member or element decodes through a decoder of its own node, so the coding path is the chain of parents.
final class TapeValueDecoder: Decoder {
    let tape: JSONTape
    let node: Int
    private let parent: TapeValueDecoder?
    private let key: (any CodingKey)?
    /// Where a keyed container of this value looks for the next key first: the member after the last one found
    /// (models read their members in about the order Stripe writes them).
    var nextMember: Int

    init(tape: JSONTape, node: Int, parent: TapeValueDecoder?, key: (any CodingKey)?) {
        self.tape = tape
        self.node = node
        self.parent = parent
        self.key = key
        nextMember = node + 1
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var decoder: TapeValueDecoder? = self
        while let current = decoder, let key = current.key {
            path.append(key)
            decoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard tape.nodes[node].kind == .object else {
            throw mismatch([String: Any].self, at: node, key: nil)
        }
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard tape.nodes[node].kind == .array else { throw mismatch([Any].self, at: node, key: nil) }
        return TapeUnkeyedContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { TapeSingleValueContainer(decoder: self) }

    /// A decoder for the child value at `child`, reached through `key`.
    func child(_ child: Int, key: any CodingKey) -> TapeValueDecoder {
        TapeValueDecoder(tape: tape, node: child, parent: self, key: key)
    }

    // MARK: - Scalars

    /// The path of the value at `key` of this one (`nil`: this value itself).
    func path(_ key: (any CodingKey)?) -> [any CodingKey] {
        guard let key else { return codingPath }
        return codingPath + [key]
    }

    func isNull(_ index: Int) -> Bool { tape.nodes[index].kind == .null }

    func string(_ index: Int, key: (any CodingKey)?) throws -> String {
        guard let text = tape.string(index) else { throw mismatch(String.self, at: index, key: key) }
        return text
    }

    func bool(_ index: Int, key: (any CodingKey)?) throws -> Bool {
        switch tape.nodes[index].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(Bool.self, at: index, key: key)
        }
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type, _ index: Int, key: (any CodingKey)?) throws -> T {
        let node = tape.nodes[index]
        guard node.kind == .number else { throw mismatch(T.self, at: index, key: key) }
        let range = Int(node.start)..<Int(node.end)
        if let value = TapeNumbers.integer(T.self, tape.bytes, range) { return value }
        let literal = String(decoding: tape.bytes[range], as: UTF8.self)
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: path(key), debugDescription: "Number \(literal) is not representable in Swift."))
    }

    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: T.Type, _ index: Int, key: (any CodingKey)?
    ) throws -> T {
        let node = tape.nodes[index]
        guard node.kind == .number else { throw mismatch(T.self, at: index, key: key) }
        let literal = String(decoding: tape.bytes[Int(node.start)..<Int(node.end)], as: UTF8.self)
        guard let value = T(literal), value.isFinite else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: path(key), debugDescription: "Number \(literal) is not representable in Swift."))
        }
        return value
    }

    /// The error for a value of the wrong kind, worded as `JSONDecoder`'s: a `null` is a missing value.
    func mismatch(_ type: Any.Type, at index: Int, key: (any CodingKey)?) -> DecodingError {
        let found: String
        switch tape.nodes[index].kind {
        case .null:
            return DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: path(key),
                    debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        case .object: found = "a dictionary"
        case .array: found = "an array"
        case .string, .escapedString: found = "a string"
        case .number: found = "number"
        case .true, .false: found = "bool"
        }
        return DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: path(key), debugDescription: "Expected to decode \(type) but found \(found) instead."))
    }
}

/// A position in an array, as a coding key (`JSONDecoder` names array elements `Index 0`, `Index 1`, …).
struct TapeIndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
