/// The objects of the look-back window whose outcome arrived since the history last held them (SPEC §3 and §4,
/// "Late outcomes"): a run judges them beside the objects created in its range, so a pending charge that
/// succeeded with its transfer skipped, a refund that failed, a dispute that closed or a payout that failed shows
/// in the run that first sees it. They get no `platform_fees` or `payouts` row: those stay one row per object
/// created in the range.
public struct LateOutcomes: Sendable, Hashable {
    public var charges: Set<String>
    public var refunds: Set<String>
    public var disputes: Set<String>
    public var payouts: Set<String>

    public init(
        charges: Set<String> = [], refunds: Set<String> = [], disputes: Set<String> = [], payouts: Set<String> = []
    ) {
        self.charges = charges
        self.refunds = refunds
        self.disputes = disputes
        self.payouts = payouts
    }

    /// No late outcome.
    public static let none = LateOutcomes()

    public var isEmpty: Bool { charges.isEmpty && refunds.isEmpty && disputes.isEmpty && payouts.isEmpty }

    /// How many objects they are.
    public var count: Int { charges.count + refunds.count + disputes.count + payouts.count }

    /// Every id, of whatever kind.
    public var allIDs: Set<String> { charges.union(refunds).union(disputes).union(payouts) }
}

/// The charges of one currency created in the look-back window before the range that are not final yet (still
/// `pending`): the Summary's `pending_charges` and `pending_amount`.
public struct PendingChargeTotal: Sendable, Hashable {
    public var currency: Currency
    public var count: Int
    /// The sum of their `amount`, minor units of `currency`.
    public var amount: Int64

    public init(currency: Currency, count: Int, amount: Int64) {
        self.currency = currency
        self.count = count
        self.amount = amount
    }
}
