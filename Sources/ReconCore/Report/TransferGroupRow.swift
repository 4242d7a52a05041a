/// One row of `transfer_groups.csv`: a transfer group (docs/RULES.md, "Separately transferred charges") with a charge
/// created in the range. The platform charged with no destination and paid the connected accounts with transfers it
/// made itself, tied to the charges by a shared `transfer_group` or by `source_transaction`.
///
/// `charged`, `refunded`, `transferred`, `reversed` and `platformTake` are in `currency`: the charges' currency when
/// every charge and transfer of the group is in it; else the settlement currency, from the balance transactions,
/// when they are all in one; else `currency` and those five are `nil` (no rate ties the currencies, and an
/// invented sum is worse than none). `stripeFee` and `platformNet` are in `settlementCurrency`.
public struct TransferGroupRow: Sendable, Hashable, Codable {
    /// The `transfer_group` value, or for transfers with a `source_transaction` and no group, that charge's id.
    public var transferGroup: String
    /// The creation time of the group's first charge, Unix seconds.
    public var created: Int64
    /// The currency `platformTake` is in; `nil` when the group's amounts are in more than one.
    public var currency: Currency?
    /// How many charges the group has (succeeded, captured, not destination charges), whenever created.
    public var charges: Int
    /// `Σ (amount_captured − amount_refunded)` of its charges (uncaptured remainders left out of the refunds).
    public var charged: Int64?
    /// `Σ amount_refunded` of its charges (uncaptured remainders left out).
    public var refunded: Int64?
    /// How many transfers the group has, whenever created.
    public var transfers: Int
    /// `Σ amount` of its transfers.
    public var transferred: Int64?
    /// `Σ amount_reversed` of its transfers.
    public var reversed: Int64?
    /// `charged − (transferred − reversed)`: what the platform kept.
    public var platformTake: Int64?
    /// `Σ fee` of its charges' balance transactions, in `settlementCurrency`.
    public var stripeFee: Int64?
    /// The currency of its charges' balance transactions; `nil` while they have none, or when they differ.
    public var settlementCurrency: Currency?
    /// `Σ net` over the balance transactions of its charges, their refunds, its transfers, their reversals and its
    /// charges' disputes, whenever created; `nil` when one is missing or they settle in more than one currency.
    public var platformNet: Int64?

    public init(
        transferGroup: String, created: Int64, currency: Currency?, charges: Int, charged: Int64?, refunded: Int64?,
        transfers: Int, transferred: Int64?, reversed: Int64?, platformTake: Int64?, stripeFee: Int64?,
        settlementCurrency: Currency?, platformNet: Int64?
    ) {
        self.transferGroup = transferGroup
        self.created = created
        self.currency = currency
        self.charges = charges
        self.charged = charged
        self.refunded = refunded
        self.transfers = transfers
        self.transferred = transferred
        self.reversed = reversed
        self.platformTake = platformTake
        self.stripeFee = stripeFee
        self.settlementCurrency = settlementCurrency
        self.platformNet = platformNet
    }
}
