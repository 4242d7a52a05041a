/// What `GET /v1/balance` said, at the moment Stripe answered (the `Date` of its response: the balance object
/// carries no time of its own).
///
/// Per currency: the `payments` balance is `available` + `pending`; `refund_and_dispute_prefunding` and `issuing`
/// have buckets of their own (`instant_available` is a view of the same money and never added). A balance type the
/// snapshot names (``reportedTypes``) but without a currency counts as zero in that currency: Stripe lists only the
/// currencies a balance holds.
public struct BalanceSnapshot: Sendable, Hashable {
    /// Unix seconds of Stripe's answer. Every balance transaction created before ``end`` is in it.
    public var takenAt: Int64
    /// The amounts, minor units of each key's currency.
    public var amounts: [BalanceKey: Int64]
    /// The balance types the snapshot reports (whether or not it lists a currency for them).
    public var reportedTypes: Set<BalanceType>

    public init(takenAt: Int64, amounts: [BalanceKey: Int64], reportedTypes: Set<BalanceType>) {
        self.takenAt = takenAt
        self.amounts = amounts
        self.reportedTypes = reportedTypes
    }

    /// The first second after the snapshot: balance transactions created before it are in the snapshot's balance.
    public var end: Int64 { takenAt + 1 }

    /// The snapshot's amount for `key`: zero for a currency a reported type does not list, `nil` for a balance type
    /// the snapshot does not report.
    public func amount(_ key: BalanceKey) -> Int64? {
        guard reportedTypes.contains(key.balanceType) else { return nil }
        return amounts[key] ?? 0
    }
}
