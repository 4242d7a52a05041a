/// A currency as Stripe writes it: a lower-case three-letter ISO 4217 code such as `usd` or `jpy`.
///
/// The number of decimals of Stripe's API amounts (the *exponent*) comes from Stripe's own table, not from
/// ISO 4217: they differ for ISK, UGX, MGA and others (https://docs.stripe.com/currencies).
/// A code Stripe has never used is still a `Currency`, but its `exponent` is `nil`: nothing may assume 2.
public struct Currency: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The lower-case code, for example `usd`.
    public let rawValue: String

    /// Accepts any three ASCII letters, in any case (Stripe writes lower case; so do we).
    public init?(rawValue: String) {
        guard rawValue.utf8.count == 3, rawValue.utf8.allSatisfy({ $0.isASCIILetter }) else { return nil }
        // Stripe writes codes in lower case: `lowercased()` (Unicode's, a new string) only for one that is not.
        self.rawValue = rawValue.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") }) ? rawValue : rawValue.lowercased()
    }

    /// Parses a code or throws ``CurrencyError/malformedCode(_:)``.
    public init(code: String) throws(CurrencyError) {
        guard let currency = Currency(rawValue: code) else { throw .malformedCode(code) }
        self = currency
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let code = try container.decode(String.self)
        guard let currency = Currency(rawValue: code) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(code)' is not a three-letter currency code")
        }
        self = currency
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: Currency, rhs: Currency) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Number of decimals of this currency's minor unit in Stripe's API, or `nil` when Stripe's table does
    /// not know the code (then no amount in it can be rendered honestly).
    public var exponent: Int? { CurrencyTable.exponent(of: rawValue) }

    /// The exponent, or ``CurrencyError/unknownCurrency(_:)``.
    public func requireExponent() throws(CurrencyError) -> Int {
        guard let exponent else { throw .unknownCurrency(rawValue) }
        return exponent
    }
}

// MARK: - Well-known currencies

extension Currency {
    /// Builds a currency from a code known to be well formed; for literals in code and tests.
    static func known(_ code: StaticString) -> Currency {
        let text = code.description
        guard let currency = Currency(rawValue: text) else { preconditionFailure("'\(text)' is not a currency code") }
        return currency
    }

    public static let usd = Currency.known("usd")
    public static let eur = Currency.known("eur")
    public static let gbp = Currency.known("gbp")
    public static let jpy = Currency.known("jpy")
    public static let bhd = Currency.known("bhd")
    public static let krw = Currency.known("krw")
    public static let aud = Currency.known("aud")
}

/// Why a currency could not be used.
public enum CurrencyError: ActionableError, Equatable {
    /// The text is not three letters.
    case malformedCode(String)
    /// Stripe's table does not know the code, so its decimals are unknown.
    case unknownCurrency(String)

    public var message: String {
        switch self {
        case .malformedCode(let code):
            "'\(code.prefix(20))' is not a currency code: Stripe writes three lower-case letters such as 'usd'."
        case .unknownCurrency(let code):
            "Currency '\(code)' is not in Stripe's currency table, so its number of decimals is unknown; "
                + "connect-recon will not guess. Add it to CurrencyTable if Stripe has started supporting it."
        }
    }

    public var isBadInput: Bool { false }
}

extension UInt8 {
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
}
