import ReconCore

/// The account debits of one part by what they name (docs/RULES.md, "The platform's other money"): each succeeded
/// debit under every id its links name (``ChargeFacts/linksToHeldObjects(keys:)``: a charge, a PaymentIntent, a
/// refund, a dispute or a transfer group; a link the history holds nothing of is left out). Refund recovery and
/// unreversed disputes read what a connected account gave back by debit through it, in their own currency only.
struct AccountDebitLinks {
    /// Id named → the debits naming it (``naming(_:)`` puts them in creation order).
    private let byName: [String: [ChargeFacts]]
    /// Debit → every id it names.
    private let links: [String: Set<String>]

    static let empty = AccountDebitLinks(byName: [:], links: [:])

    private init(byName: [String: [ChargeFacts]], links: [String: Set<String>]) {
        self.byName = byName
        self.links = links
    }

    /// The succeeded account debits among `charges`, by the ids they name under `keys`.
    init(charges: [ChargeFacts], keys: [String]) {
        var byName: [String: [ChargeFacts]] = [:]
        var links: [String: Set<String>] = [:]
        // Each charge where it is, copied only when it is a debit (`for debit in charges` copied every charge,
        // retaining each of its strings).
        charges.forEachInPlace { found in
            guard found.pointee.isAccountDebit, found.pointee.isSucceededAndCaptured else { return }
            let debit = found.pointee
            let named = debit.linksToHeldObjects(keys: keys)
            guard links[debit.id] == nil, !named.isEmpty else { return }
            links[debit.id] = Set(named)
            for link in named { byName[link, default: []].append(debit) }
        }
        self.byName = byName
        self.links = links
    }

    /// The debits naming any of `ids`, each once, in creation order.
    func naming(_ ids: [String]) -> [ChargeFacts] {
        var seen: Set<String> = []
        return ids.flatMap { byName[$0] ?? [] }.filter { seen.insert($0.id).inserted }
            .sorted { ($0.created, $0.id) < ($1.created, $1.id) }
    }

    /// What a connected account gave back by debit in `currency` of the refunds of a charge (or group) that `owners`
    /// name (its charges' and PaymentIntents' ids, the group's key): the debits naming one of `refunds`, and those
    /// naming an owner made at or after the first refund and before the first of `disputes` that withdrew funds (a
    /// debit after a dispute is its recovery). Debits naming another refund or a dispute give nothing back here.
    func refundShare(
        owners: [String], refunds: [RefundFacts], disputes: [DisputeFacts], in currency: Currency
    ) -> [ChargeFacts] {
        guard let first = refunds.first else { return [] }
        let refundIDs = refunds.map(\.id)
        let firstDispute = disputes.first { DisputeFacts.fundsWithdrawnAtSomePoint.contains($0.status) }?.created
        let byOwner = naming(owners).filter { debit in
            debit.created >= first.created && firstDispute.map { debit.created < $0 } ?? true
        }
        // A debit that also names another object (a dispute, another charge's refund) is that object's.
        let own = Set(owners).union(refundIDs)
        var seen: Set<String> = []
        return (naming(refundIDs) + byOwner.filter { (links[$0.id] ?? []).isSubset(of: own) })
            .filter { $0.currency == currency && seen.insert($0.id).inserted }
    }

    /// What a connected account gave back by debit of `dispute`, in its currency, on a charge (or group) that `owners`
    /// name: the debits naming the dispute, and those naming an owner made at or after it whose latest withdrawing
    /// dispute (among `chargeDisputes`, in creation order) is this one, as reversals are attributed.
    func disputeRecovery(
        _ dispute: DisputeFacts, owners: [String], chargeDisputes: [DisputeFacts]
    ) -> [ChargeFacts] {
        let withdrawing = chargeDisputes.filter { DisputeFacts.fundsWithdrawnAtSomePoint.contains($0.status) }
        // A debit that also names another object (a refund, another dispute) is that object's.
        let own = Set(owners).union([dispute.id])
        let byOwner = naming(owners).filter { debit in
            guard debit.created >= dispute.created, (links[debit.id] ?? []).isSubset(of: own) else { return false }
            return withdrawing.last(where: { $0.created <= debit.created })?.id == dispute.id
        }
        var seen: Set<String> = []
        return (naming([dispute.id]) + byOwner).filter {
            $0.currency == dispute.currency && seen.insert($0.id).inserted
        }
    }
}
