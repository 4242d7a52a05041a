/// A field that Stripe sends as an object's id, or as the whole object when the request asked for it with
/// `expand[]` (https://docs.stripe.com/api/expanding_objects).
///
/// Either way ``id`` names the object; ``expanded`` is the object itself when it was expanded.
public indirect enum Expandable<Object: StripeObject>: Sendable, Equatable, Identifiable {
    /// Only the id was sent (Stripe's default).
    case id(String)
    /// The object was expanded inline.
    case object(Object)

    /// The id of the referenced object, whichever form Stripe sent.
    public var id: String {
        switch self {
        case .id(let id): id
        case .object(let object): object.id
        }
    }

    /// The expanded object, or `nil` when only the id was sent.
    public var expanded: Object? {
        switch self {
        case .id: nil
        case .object(let object): object
        }
    }
}

extension Expandable: Decodable {
    /// Decodes a JSON string as ``id(_:)`` and a JSON object as ``object(_:)``. An expanded object is held to
    /// the same rules as a top-level one: if it lacks a required field, decoding fails.
    public init(from decoder: any Decoder) throws {
        if let id = try? decoder.singleValueContainer().decode(String.self) {
            self = .id(id)
        } else {
            self = .object(try Object(from: decoder))
        }
    }
}
