import ReconCore

extension FactIndex {
    /// The reversals of a group's transfers, in creation order (ties by id).
    func reversals(ofGroup group: String) -> [TransferReversalFacts] {
        (transferGroups.transfers[group] ?? []).flatMap { reversals(of: $0) }
            .sorted { ($0.created, $0.id) < ($1.created, $1.id) }
    }

    /// The disputes of a group's charges, in creation order (ties by id).
    func disputes(ofGroup group: String) -> [DisputeFacts] {
        (transferGroups.charges[group] ?? []).flatMap { disputesByCharge[$0.id] ?? [] }
            .sorted { ($0.created, $0.id) < ($1.created, $1.id) }
    }
}
