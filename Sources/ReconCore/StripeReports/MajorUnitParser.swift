/// Reads an amount written in major units (`-60.00`, `1234`, `0.123`) as minor units, with integer arithmetic only:
/// the inverse of ``MinorUnitFormatter``.
///
/// Stripe's report files write amounts this way. The text is an optional `-`, at least one ASCII digit, and an
/// optional `.` followed by one to `exponent` digits; nothing else (no `+`, exponent, thousands separator, white
/// space, `NaN`). A shorter fraction is padded (`1.5` in usd is 150); a longer one is refused rather than rounded.
public enum MajorUnitParser {
    /// Why a text is not an amount.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        /// A character that is not a digit, a leading `-` or one `.` (its first occurrence).
        case unexpectedCharacter(Character)
        /// No digit before the `.` or none after it.
        case missingDigits
        /// More decimals than the currency has.
        case tooManyDecimals(found: Int, exponent: Int)
        /// The amount does not fit in 64 bits of minor units.
        case overflow

        public var description: String {
            switch self {
            case .empty: "it is empty"
            case .unexpectedCharacter(let character): "'\(character)' is not allowed in an amount"
            case .missingDigits: "it needs digits before the decimal point and, when there is one, after it"
            case .tooManyDecimals(let found, let exponent):
                "it has \(found) decimal\(found == 1 ? "" : "s") but the currency has \(exponent)"
            case .overflow: "it does not fit in 64 bits of minor units"
            }
        }
    }

    /// The minor units `text` names in a currency with `exponent` decimals (0…18).
    ///
    /// `minorUnits("-60.00", exponent: 2)` is −6000; `minorUnits("1234", exponent: 0)` is 1234;
    /// `minorUnits("0.123", exponent: 3)` is 123.
    public static func minorUnits(_ text: some StringProtocol, exponent: Int) throws(Problem) -> Int64 {
        precondition((0...18).contains(exponent), "an exponent is between 0 and 18")
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .empty }
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var whole: [UInt8] = []
        var fraction: [UInt8] = []
        var seenPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if seenPoint { fraction.append(byte) } else { whole.append(byte) }
            } else if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                throw .unexpectedCharacter(Self.character(in: bytes, at: index))
            }
            index += 1
        }
        guard !whole.isEmpty, !seenPoint || !fraction.isEmpty else { throw .missingDigits }
        guard fraction.count <= exponent else { throw .tooManyDecimals(found: fraction.count, exponent: exponent) }
        // Minor units: the whole digits, then the fraction padded with zeros to `exponent` digits.
        let digits = whole + fraction + [UInt8](repeating: UInt8(ascii: "0"), count: exponent - fraction.count)
        var value: Int64 = 0
        for byte in digits {
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowTimes, !overflowAdd else { throw .overflow }
            value = next
        }
        return value
    }

    /// The character starting at byte `offset` (every byte before it is ASCII, so it starts a character).
    private static func character(in bytes: [UInt8], at offset: Int) -> Character {
        String(decoding: bytes[offset...], as: UTF8.self).first ?? "\u{FFFD}"
    }
}
