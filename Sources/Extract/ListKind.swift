import History
import ReconCore
import StripeAPI

/// A kind of list the extractor pages, and how its items enter the history: a kind's own list (its catalogue
/// entry's `listPath`, or a parent's nested list such as `/v1/transfers/{id}/reversals`), or what a payout paid out.
/// Its name is the kind's table (`charges`), which the checkpoints record.
struct ListKind: Hashable, Sendable, CustomStringConvertible {
    /// The kind of the list's items.
    let objectKind: ObjectKind
    /// `/v1/balance_transactions?payout=po_…`: what an automatic payout paid out, stored as balance transactions
    /// linked to the payout (the `payout` filter names it).
    let isPayoutTransactions: Bool

    /// The list of `kind`'s objects.
    init(_ kind: ObjectKind) {
        objectKind = kind
        isPayoutTransactions = false
    }

    private init(payoutTransactions: Void) {
        objectKind = .balanceTransaction
        isPayoutTransactions = true
    }

    /// What a payout paid out.
    static let payoutTransactions = ListKind(payoutTransactions: ())

    /// The lists paged over the range's windows (docs/EXTRACTION.md): the kinds the catalogue lists over the range
    /// (``CatalogueEntry/listedOverRange``), in its order. PaymentIntents come expanded inside charges.
    static let rangeLists: [ListKind] = ObjectKind.allCases.filter { $0.entry.listedOverRange }.map(ListKind.init)

    /// The list's name: the kind's table, or `payout_transactions`.
    var rawValue: String { isPayoutTransactions ? "payout_transactions" : objectKind.entry.table }

    var description: String { rawValue }

    /// `expand[]` of every page of a range list: its kind's (``CatalogueEntry/rangeExpansions``).
    var rangeExpansions: [String] { objectKind.entry.rangeExpansions }

    /// The list endpoint of a range list.
    var pathForList: String { objectKind.entry.listPath ?? "/v1/" + rawValue }

    /// Fetches one page and converts it into a batch; returns the batch, the page's last id and created,
    /// whether more pages follow, and its Request-Id.
    func fetchPage(
        client: StripeClient, path: String, endpoint: String, query: [(String, String)], precedence: Int = 0
    ) async throws(StripeClientError) -> PageResult {
        var result = try await Self.page(objectKind.wireModel, client, path, endpoint, query, precedence)
        if isPayoutTransactions {
            // The payout is the list's filter: every item is linked to it (the transaction itself names no payout).
            let payoutID = query.first { $0.0 == "payout" }?.1 ?? ""
            result.batch.payoutTransactions += result.ids.map {
                PayoutTransactionLink(payoutID: payoutID, balanceTransactionID: $0)
            }
        }
        return result
    }

    private static func page<Item: CatalogueObject>(
        _ type: Item.Type, _ client: StripeClient, _ path: String, _ endpoint: String, _ query: [(String, String)],
        _ precedence: Int
    ) async throws(StripeClientError) -> PageResult {
        let page = try await client.listPage(
            type, path: path, query: query, endpoint: endpoint, precedence: precedence)
        var batch = ObjectLists()
        let decoder = StripeJSON.decoder()
        do {
            for (item, node) in page.items {
                try Absorber.absorb(item, at: node, of: page.tape, into: &batch, decoder: decoder)
            }
        } catch {
            throw .malformedResponse(endpoint: endpoint, requestID: page.requestID, detail: error.description)
        }
        return PageResult(
            batch: batch, ids: page.items.map(\.object.id), firstCreated: page.items.first?.object.created,
            lastCreated: page.items.last?.object.created, hasMore: page.hasMore, requestID: page.requestID,
            objects: page.items.count)
    }
}

/// The names of the lists the planners choose between.
extension ListKind {
    static let charges = ListKind(.charge)
    static let transfers = ListKind(.transfer)
    static let applicationFees = ListKind(.applicationFee)
    static let balanceTransactions = ListKind(.balanceTransaction)
    static let disputes = ListKind(.dispute)
    static let refunds = ListKind(.refund)
    static let transferReversals = ListKind(.transferReversal)
    static let feeRefunds = ListKind(.feeRefund)
    static let payouts = ListKind(.payout)
}

/// One fetched page, ready to store.
struct PageResult: Sendable {
    var batch: ObjectLists
    var ids: [String]
    /// The creation times of the page's first (newest) and last (oldest) items.
    var firstCreated: Int64?
    var lastCreated: Int64?
    var hasMore: Bool
    var requestID: String?
    /// Items on the page (embedded objects not counted).
    var objects: Int

    var lastID: String? { ids.last }
}
