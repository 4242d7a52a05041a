/// One value on a ``JSONTape`` read as itself, for `Decodable` (see ``TapeValueDecoder``).
struct TapeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: TapeValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var node: Int { decoder.node }

    func decodeNil() -> Bool { decoder.isNull(node) }

    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool(node, key: nil) }
    func decode(_ type: String.Type) throws -> String { try decoder.string(node, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.floatingPoint(type, node, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.floatingPoint(type, node, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type, node, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type, node, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type, node, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type, node, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type, node, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type, node, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type, node, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type, node, key: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type, node, key: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type, node, key: nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
}
