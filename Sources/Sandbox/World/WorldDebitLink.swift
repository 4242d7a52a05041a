/// What an account debit of the world gives back, and how its `metadata` names it (docs/RULES.md, "The platform's other
/// money"): each one debits the destination account of an earlier charge (by its index in the charge table).
package enum WorldDebitLink: Sendable, Hashable {
    /// Gives back the charge's refund share, naming the charge (`metadata[charge]`).
    case chargeRefund(Int)
    /// Gives back the charge's refund share, made with a transfer on the connected account (Stripe's transfer approach)
    /// whose metadata names the charge (`metadata[stripe_charge_id]`, as GOV.UK Pay labels it); the `py_…` names
    /// nothing itself.
    case chargeRefundByTransfer(Int)
    /// Gives back the charge's refund share, naming nothing.
    case unlinked(Int)
    /// Recovers the charge's (first) dispute, naming the dispute (`metadata[dispute]`).
    case dispute(Int)

    /// The charge whose money the debit gives back.
    package var charge: Int {
        switch self {
        case .chargeRefund(let c), .chargeRefundByTransfer(let c), .unlinked(let c), .dispute(let c): c
        }
    }
}
