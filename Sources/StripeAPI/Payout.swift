import ReconCore

/// A payout (`po_…`): funds sent from the platform's Stripe balance to its bank account or debit card:
/// https://docs.stripe.com/api/payouts/object.
///
/// An automatic payout (``automatic``) pays out the balance transactions that became available since the previous
/// one; `GET /v1/balance_transactions?payout=` lists them, with the payout's own ``balanceTransaction``. A balance
/// transaction names no payout itself.
public struct Payout: StripeObject {
    /// `"payout"`.
    public static let objectType = "payout"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<Payout>
    /// The payout's id.
    public let id: String
    /// The amount sent, in minor units of ``currency`` (positive).
    public let amount: Int64
    /// The day the payout is expected in the bank: midnight UTC, in Unix seconds.
    public let arrivalDate: Int64
    /// Whether Stripe made it on the account's payout schedule (only these list their balance transactions).
    public let automatic: Bool
    /// The payout's own balance transaction (amount −``amount``).
    public let balanceTransaction: ExpandableID?
    /// When the payout was created, in Unix seconds.
    public let created: Int64
    /// The payout's currency: the balance it pays out.
    public let currency: Currency
    /// Stripe's description, for example `"STRIPE PAYOUT"`.
    public let description: String?
    /// The bank account (`ba_…`) or card (`card_…`) paid.
    public let destination: ExpandableID?
    /// The balance transaction that returned the funds when the payout failed or was canceled.
    public let failureBalanceTransaction: ExpandableID?
    /// Why the payout failed, for example `account_closed`.
    public let failureCode: String?
    /// Stripe's explanation of the failure.
    public let failureMessage: String?
    /// Whether the payout is in live mode.
    public let livemode: Bool
    /// The platform's key-value metadata; empty when Stripe sent none or `null`.
    @StripeMetadata public var metadata: [String: String]
    /// `standard` or `instant`.
    public let method: PayoutMethod?
    /// Whether Stripe's payout reconciliation report covers it yet (`completed`, `in_progress`, `not_applicable`).
    public let reconciliationStatus: PayoutReconciliationStatus?
    /// The balance the payout is drawn from: `card`, `bank_account` or `fpx`.
    public let sourceType: String?
    /// Where the payout is.
    public let status: PayoutStatus
    /// `bank_account` or `card`.
    public let type: PayoutType?

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case amount
        case arrivalDate = "arrival_date"
        case automatic
        case balanceTransaction = "balance_transaction"
        case created
        case currency
        case description
        case destination
        case failureBalanceTransaction = "failure_balance_transaction"
        case failureCode = "failure_code"
        case failureMessage = "failure_message"
        case livemode
        case metadata
        case method
        case reconciliationStatus = "reconciliation_status"
        case sourceType = "source_type"
        case status
        case type
    }
}
