/// An amount of money: an integer count of a currency's minor units (Stripe's convention), never a
/// floating-point number. `Money(minorUnits: 877, currency: .usd)` is 8.77 USD; with `.jpy` it is ¥877.
///
/// Arithmetic refuses to mix currencies and refuses to overflow: both are errors, not wraps.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// The amount in minor units of `currency`.
    public let minorUnits: Int64
    /// The currency the amount is counted in.
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Zero in `currency`.
    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    public var isZero: Bool { minorUnits == 0 }
    public var isNegative: Bool { minorUnits < 0 }

    /// `self + other`, or an error when the currencies differ or the sum leaves `Int64`.
    public func adding(_ other: Money) throws(MoneyError) -> Money {
        try requireSameCurrency(other, operation: "add")
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow(operation: "\(self) + \(other)") }
        return Money(minorUnits: sum, currency: currency)
    }

    /// `self − other`, or an error when the currencies differ or the difference leaves `Int64`.
    public func subtracting(_ other: Money) throws(MoneyError) -> Money {
        try requireSameCurrency(other, operation: "subtract")
        let (difference, overflow) = minorUnits.subtractingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow(operation: "\(self) − \(other)") }
        return Money(minorUnits: difference, currency: currency)
    }

    /// `−self`, or an error for `Int64.min`, whose negation does not fit.
    public func negated() throws(MoneyError) -> Money {
        guard minorUnits != .min else { throw .overflow(operation: "−(\(self))") }
        return Money(minorUnits: -minorUnits, currency: currency)
    }

    /// The sum of `amounts`, all in `currency`; an empty sequence sums to zero.
    public static func sum(_ amounts: some Sequence<Money>, in currency: Currency) throws(MoneyError) -> Money {
        var total = Money.zero(currency)
        for amount in amounts { total = try total.adding(amount) }
        return total
    }

    /// The amount in major units with exactly the currency's decimals (`8.77`, `877`, `8.770`, `-0.05`).
    public func formatted() throws(CurrencyError) -> String {
        MinorUnitFormatter.string(minorUnits, exponent: try currency.requireExponent())
    }

    /// For logs and error messages: `8.77 usd`, or the raw minor units when the currency is unknown.
    public var description: String {
        guard let exponent = currency.exponent else { return "\(minorUnits) minor units of \(currency)" }
        return "\(MinorUnitFormatter.string(minorUnits, exponent: exponent)) \(currency)"
    }

    private func requireSameCurrency(_ other: Money, operation: String) throws(MoneyError) {
        guard currency == other.currency else {
            throw .currencyMismatch(operation: operation, left: currency, right: other.currency)
        }
    }
}

// MARK: - Operators

extension Money {
    public static func + (lhs: Money, rhs: Money) throws(MoneyError) -> Money { try lhs.adding(rhs) }
    public static func - (lhs: Money, rhs: Money) throws(MoneyError) -> Money { try lhs.subtracting(rhs) }
}

/// Why an amount could not be computed.
public enum MoneyError: ActionableError, Equatable {
    /// Two amounts in different currencies met in one sum.
    case currencyMismatch(operation: String, left: Currency, right: Currency)
    /// The result does not fit in 64 bits.
    case overflow(operation: String)

    public var message: String {
        switch self {
        case .currencyMismatch(let operation, let left, let right):
            "Refused to \(operation) \(left) and \(right) amounts: totals are only ever kept within one currency. "
                + "This is a bug or inconsistent data; please report it with the object ids involved."
        case .overflow(let operation):
            "The amount \(operation) does not fit in 64 bits. No real Stripe amount is this large; "
                + "check the objects involved for corrupt data."
        }
    }

    public var isBadInput: Bool { false }
}

/// Renders minor units as major units with integer arithmetic only.
public enum MinorUnitFormatter {
    /// `string(877, exponent: 2)` is `8.77`; `string(877, exponent: 0)` is `877`; `string(8770, exponent: 3)`
    /// is `8.770`; negatives get a leading `-`; no thousands separators. Exact for every `Int64`.
    public static func string(_ minorUnits: Int64, exponent: Int) -> String {
        var bytes: [UInt8] = []
        append(minorUnits, exponent: exponent, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``string(_:exponent:)``'s text, as UTF-8, to `bytes`: the CSV writer's way, with no string made for
    /// each of the millions of amounts a report holds.
    @inlinable
    public static func append<Sink: ByteSink & ~Copyable>(_ minorUnits: Int64, exponent: Int, to bytes: inout Sink) {
        precondition((0...18).contains(exponent), "an exponent is between 0 and 18")
        if minorUnits < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = minorUnits.magnitude  // UInt64: exact even for Int64.min
        guard exponent > 0 else {
            magnitude.appendDecimalDigits(to: &bytes)
            return
        }
        // `5` at exponent 2 reads `0.05`: the units, then every decimal.
        let scale = UInt64.powersOfTen[exponent]
        (magnitude / scale).appendDecimalDigits(to: &bytes)
        bytes.append(UInt8(ascii: "."))
        (magnitude % scale).appendDecimalDigits(minimumWidth: exponent, to: &bytes)
    }
}
