import ReconCore

/// Keeps spreadsheets from running report text as a formula (OWASP "CSV injection").
///
/// A text cell whose first character is `=`, `+`, `-`, `@`, tab or carriage return (docs/REPORTS.md) gets a single
/// quote `'` in front, in the CSV and in the workbook alike, so both show the same text. In the workbook the
/// cell is a string cell anyway (never a formula); the visible `'` also keeps it text when someone edits the
/// cell or copies it elsewhere. Amounts are numbers, not text, and are never touched: `-8.77` stays `-8.77`.
public enum FormulaGuard {
    /// The first characters a spreadsheet may treat as the start of a formula.
    public static let dangerousFirstCharacters: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text`, or `'` + `text` when its first character is dangerous.
    ///
    /// Every dangerous character is ASCII, so the first UTF-8 byte decides (a byte of a multi-byte character is never
    /// ASCII): no hashing for each of the millions of text cells a report writes.
    public static func neutralised(_ text: String) -> String {
        guard let first = text.utf8.first, first < 0x80, isDangerousASCII[Int(first)] else { return text }
        return "'" + text
    }

    /// ``dangerousFirstCharacters`` by ASCII code.
    private static let isDangerousASCII: [Bool] = (0..<128).map {
        dangerousFirstCharacters.contains(Unicode.Scalar(UInt8($0)))
    }
}

/// The text both writers show for values that are not plain numbers.
enum CellText {
    /// What an amount becomes when its currency's number of decimals is unknown (a code missing from
    /// Stripe's table, or an exception row without a currency): the raw minor units, labelled so nobody reads
    /// them as major units. It is text on purpose: a number column that suddenly holds text gets noticed, and
    /// it starts with a letter, so it never looks like a formula. Every such cell is counted in
    /// ``ReportFiles/amountsWithUnknownDecimals`` and on the Run sheet.
    static func unknownDecimals(_ minorUnits: Int64) -> String { "minor units: \(minorUnits)" }

    /// The exponent an amount is rendered with, or `nil` when it cannot be rendered honestly.
    static func exponent(of currency: Currency?) -> Int? { currency?.exponent }
}

/// `2026-11-20T13:45:07Z` from Unix seconds with integer arithmetic only: the same text as
/// `RFC3339.utcString`, without a calendar lookup per cell (a million-row report has a million of them).
enum UTCTimestamp {
    static func string(_ unixSeconds: Int64) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(20)
        append(unixSeconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func append<Sink: ByteSink & ~Copyable>(_ unixSeconds: Int64, to bytes: inout Sink) {
        let days = floorDivide(unixSeconds, 86_400)
        let secondOfDay = unixSeconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        year.appendDecimalDigits(minimumWidth: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        month.appendDecimalDigits(minimumWidth: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        day.appendDecimalDigits(minimumWidth: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        (secondOfDay / 3600).appendDecimalDigits(minimumWidth: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        (secondOfDay % 3600 / 60).appendDecimalDigits(minimumWidth: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        (secondOfDay % 60).appendDecimalDigits(minimumWidth: 2, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// Howard Hinnant's `civil_from_days` (proleptic Gregorian calendar).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
