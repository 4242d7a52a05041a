import ReconCore

/// A balance transaction (`txn_…`): one movement of the platform's Stripe balance, the ledger of record:
/// https://docs.stripe.com/api/balance_transactions/object.
///
/// Signs follow Stripe: ``amount`` is positive for funds charged to another party and negative for funds sent
/// to another party; ``fee`` is positive when assessed; ``net`` is `amount − fee`.
public struct BalanceTransaction: StripeObject {
    /// `"balance_transaction"`.
    public static let objectType = "balance_transaction"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<BalanceTransaction>
    /// The balance transaction's id.
    public let id: String
    /// The gross amount, in minor units of ``currency`` (the settlement currency).
    public let amount: Int64
    /// When the net funds become available, in Unix seconds.
    public let availableOn: Int64
    /// The balance affected; absent before API version 2026.
    public let balanceType: BalanceType?
    /// When the transaction was created, in Unix seconds.
    public let created: Int64
    /// The settlement currency of ``amount``, ``fee`` and ``net``.
    public let currency: Currency
    /// Stripe's description, for example `"Chargeback withdrawal for ch_…"`.
    public let description: String?
    /// The rate used to convert from the source object's currency, when it differs. The one floating-point
    /// value in the models: Stripe sends a decimal rate, not an amount.
    public let exchangeRate: Double?
    /// The fees, in minor units; positive when assessed.
    public let fee: Int64
    /// What ``fee`` is made of.
    public let feeDetails: [FeeDetail]
    /// `amount − fee`: the change to the balance.
    public let net: Int64
    /// Stripe's accounting grouping; group by this rather than by ``type``.
    public let reportingCategory: ReportingCategory
    /// The object that caused the transaction: its id, or the object when requested with `expand[]=data.source`.
    public let source: BalanceTransactionSource?
    /// Whether the funds are available yet.
    public let status: BalanceTransactionStatus
    /// The transaction's type.
    public let type: BalanceTransactionType

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case amount
        case availableOn = "available_on"
        case balanceType = "balance_type"
        case created
        case currency
        case description
        case exchangeRate = "exchange_rate"
        case fee
        case feeDetails = "fee_details"
        case net
        case reportingCategory = "reporting_category"
        case source
        case status
        case type
    }
}
