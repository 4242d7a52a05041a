import ReconCore

/// One automatic payout of the world as the generator made it, for tests and for the ground truth of payout
/// reconciliation (docs/RULES.md, `payouts.csv`). Amounts are minor units; times are Unix seconds.
public struct SandboxPayout: Sendable, Equatable {
    /// `po_…`.
    public var id: String
    public var created: Int64
    /// Midnight UTC of the expected arrival day.
    public var arrivalDate: Int64
    public var currency: Currency
    /// What the payout sent to the bank.
    public var amount: Int64
    /// `paid`, `in_transit` or `failed`, at the world's end.
    public var status: String
    /// `completed`, or `in_progress` for a payout created less than a day and a half before the world's end.
    public var reconciliationStatus: String
    /// The balance transactions it paid out, without its own, newest first.
    public var balanceTransactionIDs: [String]
    /// What `?payout=` lists of ``balanceTransactionIDs``, newest first: all of them once the payout's reconciliation
    /// is completed, the older half while it is in progress.
    public var listedBalanceTransactionIDs: [String]
    /// The sum of `net` over ``balanceTransactionIDs``: ``amount`` except for the deliberate mismatches.
    public var netOfTransactions: Int64
    /// Its own `payout` balance transaction (amount −``amount``).
    public var ownBalanceTransactionID: String
    /// Whether Stripe made it on the payout schedule; a manual (Instant) payout is attributed no transactions.
    public var automatic: Bool
    /// The `payout_failure` balance transaction that returned a failed payout's funds.
    public var failureBalanceTransactionID: String?

    /// Whether the amount differs from what its balance transactions add up to.
    public var isMismatch: Bool { amount != netOfTransactions }
}

extension SandboxWorld {
    /// Every payout of the world, oldest first.
    public func payouts() -> [SandboxPayout] {
        let payouts = storage.payouts
        let ids = storage.ids
        return (0..<payouts.count).map { p in
            SandboxPayout(
                id: ids.id(.payout, p), created: payouts.created[p], arrivalDate: payouts.arrivalDate[p],
                currency: payouts.currency[p].currency, amount: payouts.amount[p], status: payouts.status[p].name,
                reconciliationStatus: payouts.reconciliation[p].name,
                balanceTransactionIDs: payouts.transactions.items(of: p).reversed().map {
                    ids.id(.balanceTransaction, Int($0))
                },
                listedBalanceTransactionIDs: payouts.listedPaidOut(of: p).reversed().map {
                    ids.id(.balanceTransaction, Int($0))
                },
                netOfTransactions: payouts.netOfTransactions[p],
                ownBalanceTransactionID: ids.id(.balanceTransaction, Int(payouts.balanceTransaction[p])),
                automatic: payouts.automatic[p],
                failureBalanceTransactionID: payouts.failureBalanceTransaction[p] >= 0
                    ? ids.id(.balanceTransaction, Int(payouts.failureBalanceTransaction[p])) : nil)
        }
    }
}
