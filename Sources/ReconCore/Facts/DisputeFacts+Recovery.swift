/// What a dispute recovered from the connected account: the one definition the rules and the history's follow-ups
/// (whether to search for a won dispute's repayment) both read.
extension DisputeFacts {
    /// Statuses whose funds were withdrawn at some point (`won`: and later reinstated). Inquiries (`warning_*`)
    /// and `prevented` disputes never withdraw anything.
    public static let fundsWithdrawnAtSomePoint: Set<DisputeStatus> = [.needsResponse, .underReview, .lost, .won]

    /// The transfer reversals (of the charge's transfer) that recovered this dispute's funds: not linked to a refund
    /// and created at or after the dispute (docs/RULES.md). When a charge has more than one dispute that withdrew
    /// funds, a reversal counts for one dispute only, so nothing is recovered twice: the dispute its
    /// `metadata[dispute_id]` names, else the latest withdrawing dispute created at or before it. With a single
    /// withdrawing dispute this is exactly the rule (docs/RULES.md).
    ///
    /// - Parameters:
    ///   - reversals: the transfer's reversals, in creation order (ties by id).
    ///   - chargeDisputes: every dispute of the charge, in creation order (ties by id).
    public func recoveryReversals(
        of reversals: [TransferReversalFacts], chargeDisputes: [DisputeFacts]
    ) -> [TransferReversalFacts] {
        let disputeIDs = Set(chargeDisputes.map(\.id))
        let withdrawing = chargeDisputes.filter { Self.fundsWithdrawnAtSomePoint.contains($0.status) }
        return reversals.filter { reversal in
            guard reversal.sourceRefundID == nil, reversal.created >= created else { return false }
            if let tag = reversal.disputeIDMetadata, disputeIDs.contains(tag) { return tag == id }
            guard let owner = withdrawing.last(where: { $0.created <= reversal.created }) else { return true }
            return owner.id == id
        }
    }
}

extension DisputeFacts {
    /// Statuses of a dispute still being decided: its funds are withdrawn, the outcome is not known yet.
    public static let undecided: Set<DisputeStatus> = [.needsResponse, .underReview]

    /// Whether the rules wait for this dispute's outcome before asking the connected account for its funds: it is
    /// undecided and `charge` was made `on_behalf_of` an account (docs/RULES.md, "The platform's other money":
    /// Stripe asks platforms to recover such disputes only once they are lost). It is judged when it is lost, as a
    /// late outcome.
    public func awaitsItsOutcome(onBehalfOf charge: ChargeFacts) -> Bool {
        charge.onBehalfOf != nil && Self.undecided.contains(status)
    }
}
