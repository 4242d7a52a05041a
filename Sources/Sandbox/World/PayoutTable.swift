// The platform's automatic payouts, stored like the other tables: one array per field, sorted by `created`, the
// payout's index in its table is the index inside its `po_…` id.

/// What became of a payout by the world's end.
package enum WorldPayoutStatus: UInt8, Sendable {
    /// Sent to the bank, not yet arrived (or failed after the world's end).
    case inTransit
    /// Arrived on its `arrival_date`.
    case paid
    /// Returned by the bank: its funds are back in the balance through a `payout_failure` balance transaction.
    case failed

    package var name: String {
        switch self {
        case .inTransit: "in_transit"
        case .paid: "paid"
        case .failed: "failed"
        }
    }
}

/// Whether Stripe has finished listing the balance transactions a payout paid out (its `reconciliation_status`).
package enum WorldPayoutReconciliation: UInt8, Sendable {
    /// `GET /v1/balance_transactions?payout=` lists everything it paid out.
    case completed
    /// Stripe is still attributing transactions to it: `?payout=` lists only part of what it paid out.
    case inProgress
    /// A manual payout: Stripe attributes no transactions to it.
    case notApplicable

    package var name: String {
        switch self {
        case .completed: "completed"
        case .inProgress: "in_progress"
        case .notApplicable: "not_applicable"
        }
    }
}

package struct PayoutTable: Sendable {
    package var created: [Int64] = []
    package var currency: [WorldCurrency] = []
    package var amount: [Int64] = []
    /// Midnight UTC of the day the payout is expected in the bank.
    package var arrivalDate: [Int64] = []
    /// Whether Stripe made it on the payout schedule (`automatic`); a manual payout lists no transactions and its own
    /// balance transaction is dated at its creation.
    package var automatic: [Bool] = []
    package var status: [WorldPayoutStatus] = []
    package var reconciliation: [WorldPayoutReconciliation] = []
    /// The payout's own `payout` balance transaction.
    package var balanceTransaction: [Int32] = []
    /// The `payout_failure` balance transaction of a failed payout, `-1` for none.
    package var failureBalanceTransaction: [Int32] = []
    /// The sum of `net` over the balance transactions the payout paid out: its amount, except for the deliberate
    /// mismatches.
    var netOfTransactions: [Int64] = []
    /// Payout → the balance transactions it paid out (without its own), oldest first.
    package var transactions = Adjacency()

    var count: Int { created.count }

    /// Why a failed payout failed (Stripe's `failure_code` and `failure_message`).
    static let failureCode = "account_closed"
    static let failureMessage = "The bank account has been closed."

    /// The balance transactions `GET /v1/balance_transactions?payout=` lists for payout `index`, oldest first: its
    /// own and the ones it paid out, all of them once its reconciliation is completed, the older half (rounded down)
    /// while it is in progress, as Stripe lists a payout it is still reconciling.
    func listedTransactions(of index: Int) -> [Int32] {
        var items = Array(listedPaidOut(of: index))
        items.append(balanceTransaction[index])
        return items.sorted()
    }

    /// What `?payout=` lists of the transactions payout `index` paid out (its own not included), oldest first.
    func listedPaidOut(of index: Int) -> ArraySlice<Int32> {
        let paidOut = transactions.items(of: index)
        return reconciliation[index] == .completed ? paidOut : paidOut.prefix(paidOut.count / 2)
    }
}

extension BalanceTransactionTable {
    /// Appends a balance transaction without a fee or an exchange rate, available at once; returns its index.
    mutating func append(
        _ created: Int64, _ type: BTType, amount: Int64, currency: WorldCurrency, source kind: StripeIDKind,
        _ source: Int
    ) -> Int32 {
        self.created.append(created)
        self.type.append(type)
        self.amount.append(amount)
        fee.append(0)
        self.currency.append(currency)
        rate.append(0)
        sourceKind.append(kind)
        self.source.append(Int32(source))
        availableOn.append(created)
        pending.append(false)
        balanceType.append(.payments)
        return Int32(count - 1)
    }
}
