/// The kinds of Stripe object connect-recon extracts, stores and reconciles.
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

    /// Stripe's list endpoint for the kind, where it has a top-level one.
    public var listPath: String? {
        switch self {
        case .charge: "/v1/charges"
        case .paymentIntent: "/v1/payment_intents"
        case .applicationFee: "/v1/application_fees"
        case .transfer: "/v1/transfers"
        case .balanceTransaction: "/v1/balance_transactions"
        case .dispute: "/v1/disputes"
        case .refund: "/v1/refunds"
        case .payout: "/v1/payouts"
        case .feeRefund, .transferReversal: nil  // nested under their fee / transfer
        }
    }
}
