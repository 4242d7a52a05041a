// The platform's automatic payouts, stored like the other tables: one array per field, sorted by `created`, the
// payout's index in its table is the index inside its `po_…` id.

/// What became of a payout by the world's end.
enum WorldPayoutStatus: UInt8, Sendable {
    /// Sent to the bank, not yet arrived (or failed after the world's end).
    case inTransit
    /// Arrived on its `arrival_date`.
    case paid
    /// Returned by the bank: its funds are back in the balance through a `payout_failure` balance transaction.
    case failed

    var name: String {
        switch self {
        case .inTransit: "in_transit"
        case .paid: "paid"
        case .failed: "failed"
        }
    }
}

struct PayoutTable: Sendable {
    var created: [Int64] = []
    var currency: [WorldCurrency] = []
    var amount: [Int64] = []
    /// Midnight UTC of the day the payout is expected in the bank.
    var arrivalDate: [Int64] = []
    var status: [WorldPayoutStatus] = []
    /// The payout's own `payout` balance transaction.
    var balanceTransaction: [Int32] = []
    /// The `payout_failure` balance transaction of a failed payout, `-1` for none.
    var failureBalanceTransaction: [Int32] = []
    /// The sum of `net` over the balance transactions the payout paid out: its amount, except for the deliberate
    /// mismatches.
    var netOfTransactions: [Int64] = []
    /// Payout → the balance transactions it paid out (without its own), oldest first.
    var transactions = Adjacency()

    var count: Int { created.count }

    /// Why a failed payout failed (Stripe's `failure_code` and `failure_message`).
    static let failureCode = "account_closed"
    static let failureMessage = "The bank account has been closed."

    /// The balance transactions `GET /v1/balance_transactions?payout=` lists for payout `index`: the ones it paid
    /// out and its own, oldest first.
    func listedTransactions(of index: Int) -> [Int32] {
        var items = Array(transactions.items(of: index))
        items.append(balanceTransaction[index])
        return items.sorted()
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
        return Int32(count - 1)
    }
}
