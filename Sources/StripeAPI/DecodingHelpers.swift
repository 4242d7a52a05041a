// MARK: - Decoding helpers shared by the models
//
// The models use synthesized `Decodable`. The two rules a plain stored property cannot say live here: a
// model's `object` member is checked, and its `metadata` may be missing or `null`. Each is a type the
// synthesized code decodes with an overload of `KeyedDecodingContainer.decode(_:forKey:)` below, which the
// compiler picks over the generic one and which reads the member straight from the model's container.

/// A model's `object` member, checked while decoding: it must name `Model`, or be missing or `null`.
///
/// Decoding a transfer as a charge is a bug in the caller (wrong endpoint, wrong expansion), and must not produce
/// a half-filled value. Declared as a model's first stored property, so the check comes before any other member.
/// It has no stored properties: it adds nothing to a model's size and all of them are equal.
struct ObjectTypeCheck<Model: StripeObject>: Decodable, Equatable, Sendable {
    init() {}

    /// Decodes a lone `object` value. A model's member goes through `KeyedDecodingContainer.decode(_:forKey:)`,
    /// which also accepts a missing one.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let actual = try container.decode(String.self)
        guard actual == Model.objectType else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: Self.mismatch(actual))
        }
    }

    static func mismatch(_ actual: String) -> String {
        "expected a '\(Model.objectType)' object, found '\(actual)'"
    }
}

/// Stripe's `metadata`: a string-to-string map that some objects send as `null` or leave out; both mean "no
/// metadata", an empty map.
///
/// The wrapper of the models' `metadata` properties (`@StripeMetadata public var metadata: [String: String]`),
/// which read as plain maps.
@propertyWrapper
public struct StripeMetadata: Decodable, Equatable, Sendable {
    /// The key-value pairs; empty when Stripe sent none or `null`.
    public let wrappedValue: [String: String]

    /// Wraps a map.
    public init(wrappedValue: [String: String]) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes a lone map. A model's member goes through `KeyedDecodingContainer.decode(_:forKey:)`, which also
    /// accepts a missing or `null` one.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode([String: String].self)
    }
}

extension KeyedDecodingContainer {
    /// Checks the `object` member at `key`; see ``ObjectTypeCheck``. A missing or `null` member is accepted.
    func decode<Model>(_ type: ObjectTypeCheck<Model>.Type, forKey key: Key) throws -> ObjectTypeCheck<Model> {
        guard let actual = try decodeIfPresent(String.self, forKey: key), actual != Model.objectType else {
            return ObjectTypeCheck()
        }
        throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: type.mismatch(actual))
    }

    /// The `metadata` member at `key`; empty when it is missing or `null`.
    func decode(_ type: StripeMetadata.Type, forKey key: Key) throws -> StripeMetadata {
        StripeMetadata(wrappedValue: try decodeIfPresent([String: String].self, forKey: key) ?? [:])
    }
}
