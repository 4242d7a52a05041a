import History
import ReconCore
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

    /// The kind of the list's items.
    var objectKind: ObjectKind {
        switch self {
        case .charges: .charge
        case .transfers: .transfer
        case .applicationFees: .applicationFee
        case .balanceTransactions, .payoutTransactions: .balanceTransaction
        case .disputes: .dispute
        case .refunds: .refund
        case .transferReversals: .transferReversal
        case .feeRefunds: .feeRefund
        case .payouts: .payout
        }
    }

    /// `expand[]` of every page of a range list: its kind's (``CatalogueEntry/rangeExpansions``).
    var rangeExpansions: [String] { objectKind.entry.rangeExpansions }

    /// The list endpoint of a range list.
    var pathForList: String { objectKind.entry.listPath ?? "/v1/" + rawValue }

    /// Fetches one page and converts it into a batch; returns the batch, the page's last id and created,
    /// whether more pages follow, and its Request-Id.
    func fetchPage(
        client: StripeClient, path: String, endpoint: String, query: [(String, String)]
    ) async throws(StripeClientError) -> PageResult {
        var result = try await Self.page(objectKind.wireModel, client, path, endpoint, query)
        if self == .payoutTransactions {
            // The payout is the list's filter: every item is linked to it (the transaction itself names no payout).
            let payoutID = query.first { $0.0 == "payout" }?.1 ?? ""
            result.batch.payoutTransactions += result.ids.map {
                PayoutTransactionLink(payoutID: payoutID, balanceTransactionID: $0)
            }
        }
        return result
    }

    private static func page<Item: CatalogueObject>(
        _ type: Item.Type, _ client: StripeClient, _ path: String, _ endpoint: String, _ query: [(String, String)]
    ) async throws(StripeClientError) -> PageResult {
        let page = try await client.listPage(type, path: path, query: query, endpoint: endpoint)
        var batch = ObjectLists()
        let decoder = StripeJSON.decoder()
        do {
            for (item, raw) in page.items { try Absorber.absorb(item, json: raw, into: &batch, decoder: decoder) }
        } catch {
            throw .malformedResponse(endpoint: endpoint, requestID: page.requestID, detail: error.description)
        }
        return PageResult(
            batch: batch, ids: page.items.map(\.object.id), lastCreated: page.items.last?.object.created,
            hasMore: page.hasMore, requestID: page.requestID, objects: page.items.count)
    }
}

/// One fetched page, ready to store.
struct PageResult: Sendable {
    var batch: ObjectLists
    var ids: [String]
    var lastCreated: Int64?
    var hasMore: Bool
    var requestID: String?
    /// Items on the page (embedded objects not counted).
    var objects: Int

    var lastID: String? { ids.last }
}
