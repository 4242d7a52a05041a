/// The members of an object on a ``JSONTape``, for `Decodable` (see ``TapeValueDecoder``).
///
/// A key is looked for from the member after the last one found, then from the start: models read their members in
/// about the order Stripe writes them, so most lookups compare one key.
///
/// A key written twice resolves to its first member, whatever order a model reads its keys in: that is what
/// Foundation's `JSONDecoder` does on Linux (`{"a":1,"a":2}` decodes `a` as 1; `JSONSerialization` keeps the last,
/// 2). An object whose parse found a key that may repeat (``JSONTape/Node/mayRepeatKeys``) is read from its first
/// member on every lookup.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    /// The object's keys, each once (a key written twice is the first member's, as for every lookup).
    var allKeys: [Key] {
        var seen: Set<String> = []
        return decoder.tape.members(of: decoder.node).compactMap { member in
            decoder.tape.string(member.key).flatMap { seen.insert($0).inserted ? Key(stringValue: $0) : nil }
        }
    }

    /// The node of the value at `key`, `nil` when the object has no such member.
    private func find(_ key: Key) -> Int? {
        let name = key.stringValue
        let first = decoder.node + 1
        let end = decoder.tape.next(after: decoder.node)
        if decoder.tape.nodes[decoder.node].mayRepeatKeys { return search(name, from: first, to: end) }
        let start = decoder.nextMember < end ? decoder.nextMember : first
        return search(name, from: start, to: end) ?? search(name, from: first, to: start)
    }

    /// The value of the member `name` among the members from node `start` up to node `end`, noting the member after
    /// it as where the next search starts.
    private func search(_ name: String, from start: Int, to end: Int) -> Int? {
        var member = start
        while member < end {
            let after = decoder.tape.next(after: member + 1)
            if decoder.tape.keyEquals(member, name) {
                decoder.nextMember = after
                return member + 1
            }
            member = after
        }
        return nil
    }

    private func require(_ key: Key) throws -> Int {
        guard let value = find(key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }

    /// The value at `key` read by `read`; `nil` when the member is missing or `null`.
    private func optional<T>(_ key: Key, _ read: (Int) throws -> T) throws -> T? {
        guard let value = find(key), !decoder.isNull(value) else { return nil }
        return try read(value)
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.isNull(try require(key)) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(try require(key), key: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.string(try require(key), key: key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.floatingPoint(type, try require(key), key: key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.floatingPoint(type, try require(key), key: key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.integer(type, try require(key), key: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: decoder.child(try require(key), key: key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try optional(key) { try decoder.bool($0, key: key) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try optional(key) { try decoder.string($0, key: key) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optional(key) { try decoder.floatingPoint(type, $0, key: key) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try optional(key) { try decoder.floatingPoint(type, $0, key: key) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optionalInteger(type, key) }

    private func optionalInteger<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T? {
        try optional(key) { try decoder.integer(type, $0, key: key) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try optional(key) { try T(from: decoder.child($0, key: key)) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder.child(try require(key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try require(key), key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.child(try require(key), key: key) }
}
