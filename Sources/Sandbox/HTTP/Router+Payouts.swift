// `GET /v1/payouts` and `GET /v1/balance_transactions?payout=po_…`: the filters of the payout list and the
// transactions a payout paid out. Paging, `created` bounds and expansion are the other lists' code.

extension Router {
    /// The filters `GET /v1/payouts` takes besides paging and `created`.
    static let payoutFilters: Set<String> = [
        "status", "destination", "arrival_date", "arrival_date[gt]", "arrival_date[gte]", "arrival_date[lt]",
        "arrival_date[lte]",
    ]

    /// What `GET /v1/balance_transactions?payout=` lists: the balance transactions the payout paid out and its own
    /// `payout` transaction, as Stripe lists them for automatic payouts; nothing for an id of no payout.
    func payoutTransactions(_ id: String) -> [Int32] {
        guard let index = storage.ids.index(of: id, kind: .payout), index < storage.payouts.count else { return [] }
        return storage.payouts.listedTransactions(of: index)
    }

    /// The predicate of one payout filter. A bound that is not an integer matches nothing.
    func payoutPredicate(_ name: String, _ value: String) -> ((Int) -> Bool)? {
        let payouts = storage.payouts
        switch name {
        case "status":
            return { payouts.status[$0].name == value }
        case "destination":
            let account = storage.ids.index(of: value, kind: .bankAccount)
            return { account == Int(payouts.currency[$0].rawValue) }
        default:
            guard name.hasPrefix("arrival_date") else { return nil }
            guard let bound = Int64(value) else { return { _ in false } }
            switch name {
            case "arrival_date[gt]": return { payouts.arrivalDate[$0] > bound }
            case "arrival_date[gte]": return { payouts.arrivalDate[$0] >= bound }
            case "arrival_date[lt]": return { payouts.arrivalDate[$0] < bound }
            case "arrival_date[lte]": return { payouts.arrivalDate[$0] <= bound }
            default: return { payouts.arrivalDate[$0] == bound }
            }
        }
    }
}
