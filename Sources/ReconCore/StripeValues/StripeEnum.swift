/// A string value that Stripe owns and may extend at any time, such as a status or a type.
///
/// Modelled as an *open* set — a `RawRepresentable` struct with static known values, the pattern of
/// swift-http-types' `HTTPRequest.Method` — rather than a closed `enum`: a value Stripe adds tomorrow decodes to
/// a value with that raw string instead of failing the whole page it came in.
///
/// The wire models (StripeAPI) decode these values and the facts the rules read (ReconCore) hold them, so a rule
/// compares `charge.status == .succeeded`, never a string. A string literal is a value too (`"succeeded"`), for
/// tests and tables.
public protocol StripeEnum: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
where RawValue == String {
    /// Wraps any string, known or not.
    init(rawValue: String)

    /// The values Stripe's published API description lists for this field, in its order.
    static var knownValues: [Self] { get }
}

extension StripeEnum {
    /// The value Stripe writes as `value`.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// The raw string, as Stripe writes it.
    public var description: String { rawValue }

    /// `true` when the value is one of ``knownValues``; `false` for a value Stripe added after this code.
    public var isKnown: Bool { Self.knownValues.contains(self) }
}
