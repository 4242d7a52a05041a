/// A snapshot of Stripe's balance carried to a moment of the range (`to` for the ending balance, `from` for
/// continuity) through the balance transactions the history holds (docs/RULES.md, "The books close"):
/// the balance Stripe's reports show at `moment` is the snapshot, plus the automatic payouts in transit at the
/// snapshot (Stripe's live balance drops a payout when it is created, its reports when it arrives), less the net of
/// the balance transactions dated from `moment` to the snapshot (plus those dated from the snapshot to `moment`
/// when the snapshot is older).
public struct BalanceAnchor: Sendable, Hashable {
    public var snapshot: BalanceSnapshot
    /// The moment carried to (Unix seconds).
    public var moment: Int64
    /// Per key: the automatic payouts created before the snapshot's end and dated (arriving) at or after it, as a
    /// positive amount.
    public var inTransit: [BalanceKey: Int64]
    /// Per key: Σ `net` dated in `[moment, snapshot.end)`, or minus Σ `net` dated in `[snapshot.end, moment)` for a
    /// snapshot before `moment`.
    public var datedBetween: [BalanceKey: Int64]
    /// Balances whose transactions between the two moments add up past 64 bits (corrupt amounts): no figure.
    public var overflowed: Set<BalanceKey>

    public init(
        snapshot: BalanceSnapshot, moment: Int64, inTransit: [BalanceKey: Int64], datedBetween: [BalanceKey: Int64],
        overflowed: Set<BalanceKey> = []
    ) {
        self.snapshot = snapshot
        self.moment = moment
        self.inTransit = inTransit
        self.datedBetween = datedBetween
        self.overflowed = overflowed
    }

    /// The balance at ``moment`` as Stripe's Balance report dates it: `nil` for a balance type the snapshot does not
    /// report, or a figure that does not fit in 64 bits.
    public func balance(_ key: BalanceKey) -> Int64? {
        guard !overflowed.contains(key), let amount = snapshot.amount(key) else { return nil }
        let (carried, overflowed) = amount.addingReportingOverflow(inTransit[key] ?? 0)
        let (balance, overflowedAgain) = carried.subtractingReportingOverflow(datedBetween[key] ?? 0)
        return overflowed || overflowedAgain ? nil : balance
    }

    /// The keys the anchor has figures for.
    public var keys: Set<BalanceKey> {
        Set(snapshot.amounts.keys).union(inTransit.keys).union(datedBetween.keys).filter {
            snapshot.reportedTypes.contains($0.balanceType)
        }
    }
}
