import ReconCore

/// The list endpoints and their filters.
enum ListResource: String, CaseIterable, Sendable {
    case charges
    case paymentIntents = "payment_intents"
    case applicationFees = "application_fees"
    case transfers
    case balanceTransactions = "balance_transactions"
    case disputes, refunds, payouts

    var kind: ObjectKind {
        switch self {
        case .charges: .charge
        case .paymentIntents: .paymentIntent
        case .applicationFees: .applicationFee
        case .transfers: .transfer
        case .balanceTransactions: .balanceTransaction
        case .disputes: .dispute
        case .refunds: .refund
        case .payouts: .payout
        }
    }

    var filters: Set<String> {
        switch self {
        case .charges: ["payment_intent", "transfer_group", "customer"]
        case .paymentIntents: ["customer"]
        case .applicationFees: ["charge"]
        case .transfers: ["destination", "transfer_group"]
        case .balanceTransactions: ["source", "type", "currency", "payout"]
        case .disputes: ["charge", "payment_intent"]
        case .refunds: ["charge", "payment_intent"]
        case .payouts: Router.payoutFilters
        }
    }
}
