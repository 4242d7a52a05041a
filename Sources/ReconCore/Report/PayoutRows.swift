/// One row of `payouts.csv`: an automatic payout created in the range and what the balance transactions it paid out
/// add up to, as in Stripe's itemized payout reconciliation report (docs/EXTRACTION.md, docs/REPORTS.md). Amounts are minor units of
/// `currency`.
///
/// `GET /v1/balance_transactions?payout=` lists the payout's own `payout` balance transaction (amount −`amount`)
/// along with the transactions it paid out; ``balanceTransactions`` and ``netOfTransactions`` leave it out, so for a
/// payout that adds up `netOfTransactions == amount` and ``difference`` is zero.
public struct PayoutRow: Sendable, Hashable, Codable {
    /// `po_…`.
    public var payoutID: String
    public var created: Int64
    /// Midnight UTC of the day the payout is expected in the bank.
    public var arrivalDate: Int64
    public var currency: Currency
    /// What the payout sent to the bank (positive).
    public var amount: Int64
    /// `paid`, `pending`, `in_transit`, `canceled` or `failed`, as Stripe last showed it.
    public var status: PayoutStatus
    /// `completed`, `in_progress` or `not_applicable` (open), as Stripe last showed it; `nil` when Stripe sent
    /// none (an older API version or history). Only a `completed` payout's `?payout=` list is final.
    public var reconciliationStatus: PayoutReconciliationStatus?
    /// How many balance transactions the payout paid out (its own not counted): its `payout_transactions` rows.
    /// `nil` while the list is not final.
    public var balanceTransactions: Int?
    /// The sum of their `net` in the payout's currency: what the payout should have sent. `nil` while the list is
    /// not final.
    public var netOfTransactions: Int64?
    /// `amount − netOfTransactions`: positive when the bank got more than the transactions add up to. Anything
    /// but zero is a `payout_mismatch` exception. `nil` while the list is not final.
    public var difference: Int64?
    /// Whether Stripe made it on the payout schedule (`type` `automatic`); a manual payout (`manual`) lists no
    /// transactions, so its figures stay empty.
    public var automatic: Bool

    public init(
        payoutID: String, created: Int64, arrivalDate: Int64, currency: Currency, amount: Int64, status: PayoutStatus,
        reconciliationStatus: PayoutReconciliationStatus? = nil, balanceTransactions: Int?, netOfTransactions: Int64?,
        difference: Int64?, automatic: Bool = true
    ) {
        self.automatic = automatic
        self.payoutID = payoutID
        self.created = created
        self.arrivalDate = arrivalDate
        self.currency = currency
        self.amount = amount
        self.status = status
        self.reconciliationStatus = reconciliationStatus
        self.balanceTransactions = balanceTransactions
        self.netOfTransactions = netOfTransactions
        self.difference = difference
    }
}

/// One row of `payout_transactions.csv`: a balance transaction paid out by one of the range's automatic payouts
/// (the payout's own balance transaction is not one). Amounts are minor units of `currency`; for each payout the
/// rows' `net` add up to its `payouts.csv` row's `net_of_transactions` (rows in another currency than the payout's,
/// which Stripe never makes, are listed but not added up).
public struct PayoutTransactionRow: Sendable, Hashable, Codable {
    public var payoutID: String
    public var balanceTransactionID: String
    public var created: Int64
    /// When the funds became available; `nil` when the history does not hold it.
    public var availableOn: Int64?
    public var currency: Currency
    /// The transaction's `amount`.
    public var gross: Int64
    public var fee: Int64
    public var net: Int64
    public var reportingCategory: ReportingCategory
    /// The object that caused it (`ch_…`, `tr_…`, `fee_…`, …).
    public var sourceID: String?

    public init(
        payoutID: String, balanceTransactionID: String, created: Int64, availableOn: Int64?, currency: Currency,
        gross: Int64, fee: Int64, net: Int64, reportingCategory: ReportingCategory, sourceID: String?
    ) {
        self.payoutID = payoutID
        self.balanceTransactionID = balanceTransactionID
        self.created = created
        self.availableOn = availableOn
        self.currency = currency
        self.gross = gross
        self.fee = fee
        self.net = net
        self.reportingCategory = reportingCategory
        self.sourceID = sourceID
    }
}
