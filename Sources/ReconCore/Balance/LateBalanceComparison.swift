/// An earlier range whose Stripe Balance report this run found published, after the range's own run found it not
/// published yet: the run compares it, as a late outcome (docs/RULES.md, "The books close").
public struct LateBalanceComparison: Sendable, Equatable {
    /// `[from, to)` of the earlier range, Unix seconds.
    public var from: Int64
    public var to: Int64
    /// The earlier range's roll-forward inputs, with the report found now among its ``BalanceInputs/stripeReports``.
    public var inputs: BalanceInputs

    public init(from: Int64, to: Int64, inputs: BalanceInputs) {
        self.from = from
        self.to = to
        self.inputs = inputs
    }
}

/// An earlier range whose report a late comparison found different from Stripe's: its report is out of date.
public struct StaleReportRange: Sendable, Hashable, Codable {
    /// Unix seconds, `[from, to)`.
    public var from: Int64
    public var to: Int64

    public init(from: Int64, to: Int64) {
        self.from = from
        self.to = to
    }
}
