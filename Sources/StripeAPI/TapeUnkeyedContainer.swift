/// The elements of an array on a ``JSONTape``, in order, for `Decodable` (see ``TapeValueDecoder``).
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeValueDecoder
    /// The node of the next element.
    private var element: Int
    private let end: Int
    let count: Int?
    private(set) var currentIndex = 0

    init(decoder: TapeValueDecoder) {
        self.decoder = decoder
        element = decoder.node + 1
        end = decoder.tape.next(after: decoder.node)
        var count = 0
        var index = element
        while index < end {
            count += 1
            index = decoder.tape.next(after: index)
        }
        self.count = count
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var isAtEnd: Bool { element >= end }

    /// The next element's node and key, stepping past it.
    private mutating func advance(_ type: Any.Type) throws -> (node: Int, key: TapeIndexKey) {
        guard element < end else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [TapeIndexKey(intValue: currentIndex)],
                    debugDescription: "Unkeyed container is at end."))
        }
        let current = (element, TapeIndexKey(intValue: currentIndex))
        element = decoder.tape.next(after: element)
        currentIndex += 1
        return current
    }

    mutating func decodeNil() throws -> Bool {
        guard element < end, decoder.isNull(element) else { return false }
        _ = try advance(Never.self)
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (node, key) = try advance(type)
        return try decoder.bool(node, key: key)
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let (node, key) = try advance(type)
        return try decoder.string(node, key: key)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let (node, key) = try advance(type)
        return try decoder.floatingPoint(type, node, key: key)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let (node, key) = try advance(type)
        return try decoder.floatingPoint(type, node, key: key)
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let (node, key) = try advance(type)
        return try decoder.integer(type, node, key: key)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (node, key) = try advance(type)
        return try T(from: decoder.child(node, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (node, key) = try advance([String: Any].self)
        return try decoder.child(node, key: key).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (node, key) = try advance([Any].self)
        return try decoder.child(node, key: key).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (node, key) = try advance(Any.self)
        return decoder.child(node, key: key)
    }
}
