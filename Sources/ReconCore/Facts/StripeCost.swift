import Foundation

/// One of Stripe's costs outside charges (docs/RULES.md, "The platform's other money"): a balance transaction
/// Stripe bills the platform for something other than one charge (IC+ card fees, network costs, Connect and Radar
/// fees, the dispute countered fee), read from its description.
///
/// ```swift
/// let cost = StripeCost(transaction)   // type stripe_fee, net −1234, "Card payments (2026-11-20): Stripe volume fees"
/// cost?.namedDay   // "2026-11-20"
/// cost?.kind       // "Card payments: Stripe volume fees"
/// cost?.amount     // 1234
/// ```
public struct StripeCost: Sendable, Hashable {
    /// The balance transaction types that are Stripe's costs when no charge is their source.
    public static let types: [BalanceTransactionType] = [.stripeFee, .networkCost]
    /// The reporting categories whose balance transactions are Stripe's costs when no charge is their source.
    public static let categories: [ReportingCategory] = [.fee, .networkCost]

    /// The balance transaction (`txn_…`).
    public var id: String
    public var created: Int64
    public var currency: Currency
    /// The day the description names (`2026-11-20`; the first of a period's two dates), `nil` when it names none
    /// or names one that is not a calendar date: then the cost counts on its `created` day.
    public var namedDay: String?
    /// The description without its dates (`Card payments: Stripe volume fees`), or the type when it has none.
    public var kind: String
    /// What the platform paid: `−net` (a credit of fees assessed earlier is negative).
    public var amount: Int64

    /// The cost `transaction` is, `nil` when it is not one of Stripe's costs: its type or reporting category is not
    /// one of ``types`` or ``categories``, or a charge (`ch_…`, `py_…`) is its source (that fee is the charge's).
    /// `nil` too when its `net` is `Int64.min`, whose negation does not exist.
    public init?(_ transaction: BalanceTransactionFacts) {
        guard Self.types.contains(transaction.type) || Self.categories.contains(transaction.reportingCategory)
        else { return nil }
        if let source = transaction.sourceID, source.hasPrefix("ch_") || source.hasPrefix("py_") { return nil }
        guard transaction.net != .min else { return nil }
        id = transaction.id
        created = transaction.created
        currency = transaction.currency
        amount = -transaction.net
        let parsed = StripeCostDescription(
            transaction.description?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        namedDay = parsed.namedDay
        kind = parsed.kind.isEmpty ? transaction.type.rawValue : parsed.kind
    }
}

/// A cost's description taken apart: Stripe writes the day (or period) a cost is for in parentheses,
/// `Card payments (2026-11-20): Stripe volume fees`, `Connect (2026-10-01 - 2026-10-31): Account Volume Billing`,
/// `Card Dispute Countered Fee (2026-11-03)`.
struct StripeCostDescription {
    /// The first date named, when it is a calendar date.
    var namedDay: String?
    /// The text without its parenthesised dates, spaces closed up.
    var kind: String

    init(_ text: String) {
        var kind = ""
        var namedDay: String?
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "(") {
            guard let close = rest[open...].firstIndex(of: ")") else { break }
            let inside = rest[rest.index(after: open)..<close]
            let dates = Self.dates(in: inside)
            if dates.isEmpty {
                kind += rest[...close]
            } else {
                kind += rest[..<open]
                if namedDay == nil, let first = dates.first, Self.isCalendarDate(first) { namedDay = String(first) }
            }
            rest = rest[rest.index(after: close)...]
        }
        kind += rest
        self.namedDay = namedDay
        self.kind = kind.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            .replacingOccurrences(of: " :", with: ":")
    }

    /// The `YYYY-MM-DD`-shaped words of a parenthesis, when it holds nothing else but separators (`-`, `to`,
    /// spaces); empty otherwise (a parenthesis that is not a date stays in the kind).
    private static func dates(in text: Substring) -> [Substring] {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," })
        let dates = words.filter(isDateShaped)
        guard !dates.isEmpty, words.allSatisfy({ isDateShaped($0) || $0 == "-" || $0 == "to" || $0 == "–" }) else {
            return []
        }
        return dates
    }

    private static func isDateShaped(_ word: Substring) -> Bool {
        let bytes = Array(word.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// Whether a date-shaped word is a day of the proleptic Gregorian calendar (`2026-02-30` is not).
    static func isCalendarDate(_ word: Substring) -> Bool {
        let parts = word.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, parts[0] >= 1, (1...12).contains(parts[1]) else { return false }
        let (year, month, day) = (parts[0], parts[1], parts[2])
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...lengths[month - 1]).contains(day)
    }
}
