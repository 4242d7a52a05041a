/// The kinds of Stripe object connect-recon extracts, stores and reconciles. What each kind is — its list, its
/// references, its table — is declared once, in its ``CatalogueEntry`` (``entry``).
public enum ObjectKind: String, CaseIterable, Sendable, Codable {
    case charge
    case paymentIntent = "payment_intent"
    case applicationFee = "application_fee"
    case feeRefund = "fee_refund"
    case transfer
    case transferReversal = "transfer_reversal"
    case balanceTransaction = "balance_transaction"
    case dispute
    case refund
    /// An automatic payout to the platform's bank account (`po_…`).
    case payout
}
