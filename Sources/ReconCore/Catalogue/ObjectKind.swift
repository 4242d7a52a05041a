/// The kinds of Stripe object connect-recon extracts, stores and reconciles. What each kind is — its list, its
/// references, its edges, its table — is declared once, below in this file, in its ``CatalogueEntry`` (``entry``).
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

/// The catalogue: one declaration per kind of Stripe object connect-recon keeps. Adding a kind, or a reference
/// between kinds, starts here; the plan, the absorber, the folding, the store and the follow-up queries follow.
///
/// References list every member Stripe documents as expandable on the object
/// (https://docs.stripe.com/api/expanding_objects), so that the stored JSON folds each back to its id whatever a
/// request expanded; a reference whose `kind` is set is stored as an object of its own when it arrives expanded.
extension ObjectKind {
    /// The kind's declaration.
    public var entry: CatalogueEntry {
        switch self {
        case .charge: CatalogueEntry.charge
        case .paymentIntent: CatalogueEntry.paymentIntent
        case .applicationFee: CatalogueEntry.applicationFee
        case .feeRefund: CatalogueEntry.feeRefund
        case .transfer: CatalogueEntry.transfer
        case .transferReversal: CatalogueEntry.transferReversal
        case .balanceTransaction: CatalogueEntry.balanceTransaction
        case .dispute: CatalogueEntry.dispute
        case .refund: CatalogueEntry.refund
        case .payout: CatalogueEntry.payout
        }
    }
}

extension CatalogueEntry {
    /// https://docs.stripe.com/api/charges/object
    ///
    /// The range's charges list brings the PaymentIntent; the transfer and the application fee, with their balance
    /// transactions, for the transfers made after the range (a bank debit settles days later); the refunds, with
    /// theirs and the `refund_failure` balance transaction of a refund that failed, for the refunds made after the
    /// range (platform net).
    fileprivate static let charge = CatalogueEntry(
        facts: ChargeFacts.self, listPath: "/v1/charges", listedOverRange: true, table: "charges",
        references: [
            .init("payment_intent", .paymentIntent, column: "payment_intent_id"),
            .init("transfer", .transfer, column: "transfer_id"),
            .init("application_fee", .applicationFee, column: "application_fee_id"),
            .init("balance_transaction", .balanceTransaction, column: "balance_transaction_id"),
            .init("failure_balance_transaction", .balanceTransaction),
            .init("source_transfer", .transfer),
            .init("application"), .init("customer"), .init("invoice"), .init("on_behalf_of"), .init("review"),
        ],
        lists: [.init("refunds", .refund, expansionOnly: true)],
        rangeExpansions: [
            "data.payment_intent", "data.transfer", "data.transfer.balance_transaction", "data.application_fee",
            "data.application_fee.balance_transaction", "data.refunds", "data.refunds.data.balance_transaction",
            "data.refunds.data.failure_balance_transaction",
        ],
        retrieveExpansions: ["payment_intent"],
        lateReadExpansions: [
            "payment_intent", "transfer.balance_transaction", "application_fee.balance_transaction",
            "balance_transaction",
        ])

    /// https://docs.stripe.com/api/payment_intents/object: read only inside charges (expanded) or by id.
    fileprivate static let paymentIntent = CatalogueEntry(
        facts: PaymentIntentFacts.self, listPath: "/v1/payment_intents", table: "payment_intents",
        references: [
            .init("latest_charge", .charge, column: "latest_charge_id"),
            .init("application"), .init("customer"), .init("on_behalf_of"), .init("payment_method"),
            .init("review"),
        ])

    /// https://docs.stripe.com/api/application_fees/object
    ///
    /// The range's fees list brings the refunds' balance transactions. Not the originating charge: the range's
    /// charges list holds it, or, when it is older (a bank debit's fee and transfer are made when it settles), the
    /// transfers list's `data.source_transaction`; expanding it cost the benchmark's week 8.6 MB and saved no
    /// request (docs/EXTRACTION.md), and any other is fetched by id. `charge` is the connected account's payment
    /// (`py_…`), not the platform's charge.
    fileprivate static let applicationFee = CatalogueEntry(
        facts: ApplicationFeeFacts.self, listPath: "/v1/application_fees", listedOverRange: true,
        table: "application_fees",
        references: [
            .init("balance_transaction", .balanceTransaction, column: "balance_transaction_id"),
            .init("originating_transaction", .charge, column: "originating_charge_id", parent: .createdInRange),
            .init("account", column: "account_id"), .init("application"), .init("charge"),
        ],
        lists: [.init("refunds", .feeRefund)],
        rangeExpansions: ["data.refunds.data.balance_transaction"])

    /// https://docs.stripe.com/api/fee_refunds/object: listed at `/v1/application_fees/{id}/refunds`.
    fileprivate static let feeRefund = CatalogueEntry(
        facts: FeeRefundFacts.self, listPath: nil, table: "fee_refunds",
        references: [
            .init("balance_transaction", .balanceTransaction, column: "balance_transaction_id"),
            .init("fee", .applicationFee, column: "fee_id", parent: .anyTime),
        ])

    /// https://docs.stripe.com/api/transfers/object
    ///
    /// The range's transfers list brings the reversals' balance transactions (reversals after the range) and the
    /// funding charge with its PaymentIntent when it is older than the range (`source_transaction` must be a
    /// destination charge). `destination_payment` is the connected account's payment.
    fileprivate static let transfer = CatalogueEntry(
        facts: TransferFacts.self, listPath: "/v1/transfers", listedOverRange: true, table: "transfers",
        references: [
            .init("balance_transaction", .balanceTransaction, column: "balance_transaction_id"),
            .init(
                "source_transaction", .charge, column: "source_transaction_id", parent: .anyTime,
                parentIDPrefix: "ch_"),
            .init("destination", column: "destination"), .init("destination_payment"),
        ],
        otherParents: [.init("metadata[dispute_id]", to: .dispute, column: "dispute_id_metadata")],
        lists: [.init("reversals", .transferReversal)],
        rangeExpansions: [
            "data.reversals.data.balance_transaction", "data.source_transaction",
            "data.source_transaction.payment_intent",
        ])

    /// https://docs.stripe.com/api/transfer_reversals/object: listed at `/v1/transfers/{id}/reversals`.
    fileprivate static let transferReversal = CatalogueEntry(
        facts: TransferReversalFacts.self, listPath: nil, table: "transfer_reversals",
        references: [
            .init("balance_transaction", .balanceTransaction, column: "balance_transaction_id"),
            .init("transfer", .transfer, column: "transfer_id", parent: .anyTime),
            .init("source_refund", .refund, column: "source_refund_id"),
            .init("destination_payment_refund"),
        ])

    /// https://docs.stripe.com/api/balance_transactions/object: needs no expansion, since every object that names
    /// one is listed or expanded itself. `source` may be any of a dozen kinds; expanded (a transfer reversal of an
    /// older transfer, which has no endpoint of its own: docs/EXTRACTION.md), the kinds the history keeps are stored.
    fileprivate static let balanceTransaction = CatalogueEntry(
        facts: BalanceTransactionFacts.self, listPath: "/v1/balance_transactions", listedOverRange: true,
        table: "balance_transactions",
        references: [.init("source", column: "source_id", parent: .createdInRange, anyKind: true)])

    /// https://docs.stripe.com/api/disputes/object: its balance transactions come whole, always.
    ///
    /// The range's disputes list brings the charge with its PaymentIntent and transfer: the charge of a dispute
    /// is often older than the range.
    fileprivate static let dispute = CatalogueEntry(
        facts: DisputeFacts.self, listPath: "/v1/disputes", listedOverRange: true, table: "disputes",
        references: [
            .init("charge", .charge, column: "charge_id", parent: .anyTime), .init("payment_intent", .paymentIntent),
        ],
        arrays: [.init("balance_transactions", .balanceTransaction, column: "balance_transaction_ids")],
        rangeExpansions: ["data.charge", "data.charge.payment_intent", "data.charge.transfer"])

    /// https://docs.stripe.com/api/refunds/object
    ///
    /// The range's refunds list brings the charge with its PaymentIntent and transfer (the charge of a refund is
    /// often older than the range), and `failure_balance_transaction` (a refund fails after it was made, often
    /// after the range).
    fileprivate static let refund = CatalogueEntry(
        facts: RefundFacts.self, listPath: "/v1/refunds", listedOverRange: true, table: "refunds",
        references: [
            .init("charge", .charge, column: "charge_id", parent: .anyTime),
            .init("balance_transaction", .balanceTransaction, column: "balance_transaction_id"),
            .init("transfer_reversal", .transferReversal, column: "transfer_reversal_id"),
            .init("failure_balance_transaction", .balanceTransaction, column: "failure_balance_transaction_id"),
            .init("payment_intent", .paymentIntent), .init("source_transfer_reversal"),
        ],
        rangeExpansions: [
            "data.charge", "data.charge.payment_intent", "data.charge.transfer", "data.failure_balance_transaction",
        ],
        lateReadExpansions: ["failure_balance_transaction"])

    /// https://docs.stripe.com/api/payouts/object: `?payout=` and the range's balance transactions list what a
    /// payout paid out, so its list needs no expansion.
    fileprivate static let payout = CatalogueEntry(
        facts: PayoutFacts.self, listPath: "/v1/payouts", listedOverRange: true, table: "payouts",
        references: [
            .init("balance_transaction", .balanceTransaction, column: "balance_transaction_id"),
            .init("failure_balance_transaction", .balanceTransaction, column: "failure_balance_transaction_id"),
            .init("original_payout", .payout), .init("reversed_by", .payout), .init("application_fee"),
            .init("destination"), .init("payout_method"),
        ], judged: .withWhatTheyPaidOut)
}
