/// What the reconciler needs to know about a payout (`po_…`) from the platform's balance to its bank account.
/// See https://docs.stripe.com/api/payouts/object.
public struct PayoutFacts: ObjectFacts, Hashable {
    public static var kind: ObjectKind { .payout }

    public var id: String
    /// Unix seconds.
    public var created: Int64
    public var currency: Currency
    /// What the payout sends to the bank, minor units of `currency` (positive).
    public var amount: Int64
    /// Midnight UTC of the day the payout is expected in the bank (Unix seconds).
    public var arrivalDate: Int64
    public var status: PayoutStatus
    /// Whether Stripe made it on the account's payout schedule. Only automatic payouts list the balance
    /// transactions they paid out (`GET /v1/balance_transactions?payout=`).
    public var automatic: Bool
    /// The payout's own `payout` balance transaction (amount −`amount`).
    public var balanceTransactionID: String?
    /// The balance transaction that returned the funds of a failed or canceled payout.
    public var failureBalanceTransactionID: String?
    /// Why it failed (`account_closed`, …), when it did.
    public var failureCode: String?
    public var livemode: Bool
    /// `completed`, `in_progress` or `not_applicable` (open): whether Stripe has finished listing the balance
    /// transactions the payout paid out. `nil` when Stripe sent none (older API versions and histories).
    public var reconciliationStatus: PayoutReconciliationStatus?

    public init(
        id: String, created: Int64, currency: Currency, amount: Int64, arrivalDate: Int64, status: PayoutStatus,
        automatic: Bool, balanceTransactionID: String?, failureBalanceTransactionID: String?, failureCode: String?,
        livemode: Bool, reconciliationStatus: PayoutReconciliationStatus? = nil
    ) {
        self.id = id
        self.created = created
        self.currency = currency
        self.amount = amount
        self.arrivalDate = arrivalDate
        self.status = status
        self.automatic = automatic
        self.balanceTransactionID = balanceTransactionID
        self.failureBalanceTransactionID = failureBalanceTransactionID
        self.failureCode = failureCode
        self.livemode = livemode
        self.reconciliationStatus = reconciliationStatus
    }

    /// Whether the balance transactions `?payout=` lists for it are final (docs/EXTRACTION.md): its
    /// `reconciliation_status` is `completed`, or absent (a history or API version from before the field, whose lists
    /// were taken as final).
    public var isReconciled: Bool { (reconciliationStatus ?? .completed) == .completed }

    /// Whether the payout's money never reached the bank: `failed` or `canceled`.
    public var didNotArrive: Bool { status == .failed || status == .canceled }
}
