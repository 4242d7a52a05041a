/// One row of `stripe_costs.csv`: Stripe's costs outside charges (``StripeCost``) created in the range, of one kind
/// and currency, for one day: the day their description names, else the local day they were created on. A cost
/// billed late for an earlier day is listed in the range it was created in, under the day it names.
public struct StripeCostRow: Sendable, Hashable, Codable {
    /// `2026-11-20`.
    public var day: String
    public var currency: Currency
    /// The description without its dates: `Card payments: Stripe volume fees`.
    public var kind: String
    /// How many balance transactions.
    public var count: Int
    /// What the platform paid for them (`−Σ net`), minor units of `currency`; negative for a credit.
    public var amount: Int64

    public init(day: String, currency: Currency, kind: String, count: Int, amount: Int64) {
        self.day = day
        self.currency = currency
        self.kind = kind
        self.count = count
        self.amount = amount
    }

    /// The report's order: by day, currency, then kind.
    public static func reportOrder(_ a: StripeCostRow, _ b: StripeCostRow) -> Bool {
        (a.day, a.currency.rawValue, a.kind) < (b.day, b.currency.rawValue, b.kind)
    }
}
