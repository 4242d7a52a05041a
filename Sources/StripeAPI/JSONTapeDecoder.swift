import Foundation

/// Decodes the models from JSON through a ``JSONTape``: the bytes are read once, and a value inside a document (an
/// item of a list page, an object expanded in another) decodes from its node without being sliced or read again.
///
/// It follows `JSONDecoder`'s rules for the models (``StripeJSON``): keys as written (no snake-case conversion),
/// members a model does not know ignored, numbers that do not fit the property's type refused, strict JSON only.
/// Errors are `DecodingError`s with the coding path, as `JSONDecoder`'s are, so ``StripeJSON/describe(_:)`` names
/// the member.
public struct JSONTapeDecoder: Sendable {
    public init() {}

    /// Decodes a `T` from a whole JSON document.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: try Self.tape(data), at: JSONTape.root)
    }

    /// Decodes a `T` from the value at node `index` of `tape`.
    public func decode<T: Decodable>(_ type: T.Type, from tape: JSONTape, at index: Int) throws -> T {
        try T(from: TapeValueDecoder(tape: tape, node: index, parent: nil, key: nil))
    }

    /// Parses `data` into a tape; a document that is not JSON fails as `JSONDecoder` fails it.
    public static func tape(_ data: Data) throws -> JSONTape {
        do {
            return try JSONTape([UInt8](data))
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The given data was not valid JSON: \(error)",
                    underlyingError: error))
        }
    }
}
