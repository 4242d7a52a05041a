import ReconCore

// The cheap filters of the list endpoints (`charge=`, `payment_intent=`, `transfer_group=`, `source=`, …).

extension Router {
    /// The candidates (few, from an index) and/or the predicate (scanned) of a list's filters.
    func filters(
        _ resource: ListResource, _ query: [(String, String)]
    ) -> (candidates: [Int32]?, predicate: ((Int) -> Bool)?) {
        var candidates: [Int32]?
        var predicates: [(Int) -> Bool] = []
        func restrict(_ values: [Int32]) {
            let sorted = values.filter { $0 >= 0 }.sorted()
            candidates = candidates.map { current in sorted.filter { current.contains($0) } } ?? sorted
        }
        let s = storage
        for (name, value) in query where resource.filters.contains(name) {
            switch (resource, name) {
            case (.charges, "payment_intent"), (.paymentIntents, "payment_intent"):
                restrict(index(value, .paymentIntent).map { [Int32($0)] } ?? [])
            case (.charges, "transfer_group"):
                if let group = s.groupIndex(value) {
                    restrict(Array(s.groupCharges.items(of: group)))
                } else {
                    restrict(groupCharge(value).map { [Int32($0)] } ?? [])
                }
            case (.transfers, "transfer_group"):
                if let group = s.groupIndex(value) {
                    restrict(Array(s.groupTransfers.items(of: group)))
                } else {
                    restrict(groupCharge(value).map { [s.charges.transfer[$0]] } ?? [])
                }
            case (.transfers, "destination"):
                let account = index(value, .account).flatMap { $0 < s.accountCount ? Int16($0) : nil } ?? -2
                predicates.append { s.transfers.destination[$0] == account }
            case (.balanceTransactions, "source"):
                restrict(balanceTransactions(of: value))
            case (.balanceTransactions, "type"):
                predicates.append { s.balanceTransactions.type[$0].type == value }
            case (.balanceTransactions, "currency"):
                let code = value.lowercased()
                predicates.append { s.balanceTransactions.currency[$0].code == code }
            case (.applicationFees, "charge"):
                let charge = index(value, .charge) ?? index(value, .connectedPayment)
                restrict(charge.map { $0 < s.charges.count ? [s.charges.fee[$0]] : [] } ?? [])
            case (.disputes, "charge"), (.refunds, "charge"):
                restrict(children(resource, ofCharge: index(value, .charge)))
            case (.disputes, "payment_intent"), (.refunds, "payment_intent"):
                restrict(children(resource, ofCharge: index(value, .paymentIntent)))
            case (.balanceTransactions, "payout"):
                restrict(payoutTransactions(value))
            case (.payouts, _):
                if let predicate = payoutPredicate(name, value) { predicates.append(predicate) }
            default:
                restrict([])  // customer: the world has none
            }
        }
        if resource == .paymentIntents, !s.charges.payingAccount.isEmpty {
            // A payment from an account has no PaymentIntent.
            let methods = s.charges.method
            predicates.append { !methods[$0].isFromAnAccount }
        }
        if resource == .balanceTransactions, !hiddenBalanceTransactions.isEmpty {
            let hidden = hiddenBalanceTransactions
            predicates.append { !hidden.contains($0) }
        }
        let predicate: ((Int) -> Bool)? =
            predicates.isEmpty ? nil : { index in predicates.allSatisfy { $0(index) } }
        return (candidates, predicate)
    }

    private func index(_ id: String, _ kind: StripeIDKind) -> Int? { storage.ids.index(of: id, kind: kind) }

    /// The destination charge whose PaymentIntent's `group_pi_…` names `group`.
    private func groupCharge(_ group: String) -> Int? {
        guard group.hasPrefix("group_"), let pi = index(String(group.dropFirst(6)), .paymentIntent),
            pi < storage.charges.count, storage.charges.intentDestination[pi] >= 0
        else { return nil }
        return pi
    }

    private func children(_ resource: ListResource, ofCharge charge: Int?) -> [Int32] {
        guard let charge, charge < storage.charges.count else { return [] }
        return Array(
            resource == .disputes
                ? storage.charges.disputes.items(of: charge) : storage.charges.refunds.items(of: charge))
    }

    private func balanceTransactions(of id: String) -> [Int32] {
        let s = storage
        guard let object = renderer.lookup(id: id) else { return [] }
        switch object {
        case .charge(let i): return [s.charges.balanceTransaction[i], s.charges.failureBalanceTransaction[i]]
        case .transfer(let i): return [s.transfers.balanceTransaction[i]]
        case .transferReversal(let i): return [s.reversals.balanceTransaction[i]]
        case .applicationFee(let i): return [s.fees.balanceTransaction[i]]
        case .feeRefund(let i): return [s.feeRefunds.balanceTransaction[i]]
        case .refund(let i): return [s.refunds.balanceTransaction[i], s.refunds.failureBalanceTransaction[i]]
        case .dispute(let i): return [s.disputes.withdrawal[i], s.disputes.reinstatement[i]]
        case .payout(let i): return [s.payouts.balanceTransaction[i], s.payouts.failureBalanceTransaction[i]]
        case .paymentIntent, .balanceTransaction: return []
        }
    }
}
