/// Stripe's `balance_change_from_activity.summary.1` report for one currency and interval: one row per reporting
/// category (https://docs.stripe.com/reports/report-types/balance-change-from-activity).
///
/// Reporting categories are an open set: a category this code does not know is kept under its own name.
public struct ActivitySummaryReport: Sendable, Equatable {
    /// One reporting category's row.
    public struct Row: Sendable, Equatable {
        /// How many balance transactions the row adds up.
        public var count: Int64
        /// Σ `amount`, in minor units.
        public var gross: Int64
        /// Σ `fee`, in minor units.
        public var fee: Int64
        /// Σ `net`, in minor units.
        public var net: Int64

        public init(count: Int64, gross: Int64, fee: Int64, net: Int64) {
            self.count = count
            self.gross = gross
            self.fee = fee
            self.net = net
        }
    }

    public var currency: Currency
    /// The interval the report covers, `[intervalStart, intervalEnd)` in Unix seconds.
    public var intervalStart: Int64
    public var intervalEnd: Int64
    /// The rows by `reporting_category` (`charge`, `refund`, …).
    public var rows: [String: Row]

    public init(currency: Currency, intervalStart: Int64, intervalEnd: Int64, rows: [String: Row]) {
        self.currency = currency
        self.intervalStart = intervalStart
        self.intervalEnd = intervalEnd
        self.rows = rows
    }

    /// The net per reporting category, in minor units.
    public var net: [String: Int64] { rows.mapValues(\.net) }
}
