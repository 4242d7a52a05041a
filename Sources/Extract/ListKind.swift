import History
import StripeAPI

/// A kind of list the extractor pages, and how its items enter the history.
enum ListKind: String, Sendable, CaseIterable {
    case charges
    case transfers
    case applicationFees = "application_fees"
    case balanceTransactions = "balance_transactions"
    case disputes
    case refunds
    /// `/v1/transfers/{id}/reversals`
    case transferReversals = "transfer_reversals"
    /// `/v1/application_fees/{id}/refunds`
    case feeRefunds = "fee_refunds"
    /// `/v1/payouts`: the platform's payouts.
    case payouts
    /// `/v1/balance_transactions?payout=po_…`: what an automatic payout paid out, stored as balance transactions
    /// linked to the payout (the `payout` filter names it).
    case payoutTransactions = "payout_transactions"

    /// The lists paged over the range's windows (SPEC §3); PaymentIntents come expanded inside charges.
    static let rangeLists: [ListKind] = [
        .charges, .transfers, .applicationFees, .balanceTransactions, .disputes, .refunds, .payouts,
    ]

    /// Expansions asked for on every page of the range's lists, so the lists carry what SPEC §4 reads about
    /// objects outside the range and no request of its own is needed for it (Stripe allows four levels, `data`
    /// included):
    /// - charges: the PaymentIntent; the transfer and the application fee, with their balance transactions, for
    ///   the transfers made after the range (a bank debit settles days later); the refunds, with theirs and the
    ///   `refund_failure` balance transaction of a refund that failed, for the refunds made after the range
    ///   (platform net);
    /// - transfers: the reversals' balance transactions (reversals after the range); the funding charge and its
    ///   PaymentIntent when it is older than the range (`source_transaction` must be a destination charge);
    /// - application fees: the refunds' balance transactions; the originating charge and its PaymentIntent;
    /// - refunds and disputes: their charge, with its PaymentIntent and transfer (the charge of a refund or
    ///   dispute is often older than the range); a refund's `failure_balance_transaction` too (it fails after it
    ///   was made, often after the range).
    /// Balance transactions need none: every object that names one is listed or expanded itself. Payouts need none
    /// either: `?payout=` and the range's balance transactions list their own balance transactions.
    var rangeExpansions: [String] {
        switch self {
        case .charges:
            [
                "data.payment_intent", "data.transfer", "data.transfer.balance_transaction", "data.application_fee",
                "data.application_fee.balance_transaction", "data.refunds", "data.refunds.data.balance_transaction",
                "data.refunds.data.failure_balance_transaction",
            ]
        case .transfers:
            [
                "data.reversals.data.balance_transaction", "data.source_transaction",
                "data.source_transaction.payment_intent",
            ]
        case .applicationFees:
            [
                "data.refunds.data.balance_transaction", "data.originating_transaction",
                "data.originating_transaction.payment_intent",
            ]
        case .refunds:
            ["data.charge", "data.charge.payment_intent", "data.charge.transfer", "data.failure_balance_transaction"]
        case .disputes:
            ["data.charge", "data.charge.payment_intent", "data.charge.transfer"]
        case .balanceTransactions, .transferReversals, .feeRefunds, .payouts, .payoutTransactions:
            []
        }
    }

    /// Fetches one page and converts it into a batch; returns the batch, the page's last id and created,
    /// whether more pages follow, and its Request-Id.
    func fetchPage(
        client: StripeClient, path: String, endpoint: String, query: [(String, String)]
    ) async throws(StripeClientError) -> PageResult {
        switch self {
        case .charges:
            try await Self.page(Charge.self, client, path, endpoint, query, Absorber.charge)
        case .transfers:
            try await Self.page(Transfer.self, client, path, endpoint, query, Absorber.transfer)
        case .applicationFees:
            try await Self.page(ApplicationFee.self, client, path, endpoint, query, Absorber.applicationFee)
        case .balanceTransactions:
            try await Self.page(BalanceTransaction.self, client, path, endpoint, query, Absorber.balanceTransaction)
        case .disputes:
            try await Self.page(Dispute.self, client, path, endpoint, query, Absorber.dispute)
        case .refunds:
            try await Self.page(Refund.self, client, path, endpoint, query, Absorber.refund)
        case .transferReversals:
            try await Self.page(TransferReversal.self, client, path, endpoint, query, Absorber.transferReversal)
        case .feeRefunds:
            try await Self.page(FeeRefund.self, client, path, endpoint, query, Absorber.feeRefund)
        case .payouts:
            try await Self.page(Payout.self, client, path, endpoint, query, Absorber.payout)
        case .payoutTransactions:
            // The payout is the list's filter: every item is linked to it.
            try await Self.page(
                BalanceTransaction.self, client, path, endpoint, query,
                Absorber.payoutTransaction(of: query.first { $0.0 == "payout" }?.1 ?? ""))
        }
    }

    private static func page<Item: StripeObject & Dated>(
        _ type: Item.Type, _ client: StripeClient, _ path: String, _ endpoint: String, _ query: [(String, String)],
        _ absorb: (Item, String, inout ObjectBatch) -> Void
    ) async throws(StripeClientError) -> PageResult {
        let page = try await client.listPage(type, path: path, query: query, endpoint: endpoint)
        var batch = ObjectBatch()
        for (item, raw) in page.items { absorb(item, raw, &batch) }
        return PageResult(
            batch: batch, ids: page.items.map(\.object.id), lastCreated: page.items.last?.object.created,
            hasMore: page.hasMore, requestID: page.requestID, objects: page.items.count)
    }
}

/// One fetched page, ready to store.
struct PageResult: Sendable {
    var batch: ObjectBatch
    var ids: [String]
    var lastCreated: Int64?
    var hasMore: Bool
    var requestID: String?
    /// Items on the page (embedded objects not counted).
    var objects: Int

    var lastID: String? { ids.last }
}

/// Objects with a creation time.
protocol Dated { var created: Int64 { get } }
extension Charge: Dated {}
extension Transfer: Dated {}
extension ApplicationFee: Dated {}
extension BalanceTransaction: Dated {}
extension Dispute: Dated {}
extension Refund: Dated {}
extension TransferReversal: Dated {}
extension FeeRefund: Dated {}
extension Payout: Dated {}

extension ListKind {
    /// The list endpoint of a range list.
    var pathForList: String { "/v1/" + rawValue }
}
