/// A line of the platform's ledger (`txn_…`), in its settlement currency.
/// See https://docs.stripe.com/api/balance_transactions/object.
public struct BalanceTransactionFacts: ObjectFacts, Hashable {
    public static var kind: ObjectKind { .balanceTransaction }

    public var id: String
    public var created: Int64
    public var currency: Currency
    /// Positive: funds charged to another party; negative: funds sent to another party.
    public var amount: Int64
    /// Fees, positive when assessed.
    public var fee: Int64
    /// `amount − fee`.
    public var net: Int64
    public var type: BalanceTransactionType
    public var reportingCategory: ReportingCategory
    /// The object that caused it (`ch_…`, `tr_…`, `fee_…`, `re_…`, `trr_…`, `fr_…`, `dp_…`, …).
    public var sourceID: String?
    /// Presentment → settlement rate, when the source was in another currency.
    public var exchangeRate: Double?
    public var status: BalanceTransactionStatus
    /// When the net funds become available (Unix seconds); `nil` in a history written before it was stored and
    /// whose raw JSON lacks it.
    public var availableOn: Int64?
    /// The balance it affects (`payments`, `refund_and_dispute_prefunding`, `issuing`, `risk_reserved`, …; API
    /// version 2025-05-28 and later), as Stripe wrote it; `nil` when absent.
    public var balanceType: BalanceType?
    /// Stripe's `description` (`Card payments (2026-11-20): Stripe volume fees`); `nil` when absent, and in a history
    /// written before it was stored for a transaction that is not one of Stripe's costs (docs/RULES.md, "The
    /// platform's other money": the only ones whose description a rule reads).
    public var description: String?

    public init(
        id: String, created: Int64, currency: Currency, amount: Int64, fee: Int64, net: Int64,
        type: BalanceTransactionType, reportingCategory: ReportingCategory, sourceID: String?, exchangeRate: Double?,
        status: BalanceTransactionStatus, availableOn: Int64? = nil, balanceType: BalanceType? = nil,
        description: String? = nil
    ) {
        self.id = id
        self.created = created
        self.currency = currency
        self.amount = amount
        self.fee = fee
        self.net = net
        self.type = type
        self.reportingCategory = reportingCategory
        self.sourceID = sourceID
        self.exchangeRate = exchangeRate
        self.status = status
        self.availableOn = availableOn
        self.balanceType = balanceType
        self.description = description
    }

    /// The ledger's balance type: ``balanceType``, `payments` where absent (the only balance before the field;
    /// docs/REPORTS.md).
    public var ledgerBalanceType: BalanceType { Self.ledgerBalanceType(balanceType) }

    /// The ledger's balance type of a transaction whose `balance_type` is `stored`.
    public static func ledgerBalanceType(_ stored: BalanceType?) -> BalanceType { stored ?? .payments }
}
