/// Which charges and transfers docs/RULES.md's "Separately transferred charges" ties together: the one definition the
/// rules and the history's part reader (which loads a group's other members) share.
extension ChargeFacts {
    /// docs/RULES.md's destination charge: `transfer_data.destination`, or `transfer`, or its PaymentIntent's
    /// `transfer_data.destination`. `intent` is looked up only when the charge's own fields do not decide: most
    /// charges of a Connect platform say it themselves, and a lookup copies the PaymentIntent's facts.
    public func isDestinationCharge(intent: @autoclosure () -> PaymentIntentFacts?) -> Bool {
        destinationAccountID != nil || transferID != nil || intent()?.destinationAccountID != nil
    }

    /// Whether the charge can belong to a transfer group: it succeeded with something captured, and it is neither a
    /// destination charge (Stripe labels a destination charge's PaymentIntent `group_pi_…` itself; that is no
    /// group the platform made) nor paid by a connected account (an account debit or a payment from its balance,
    /// ``isPaidByAnAccount``).
    public func canBelongToTransferGroup(intent: @autoclosure () -> PaymentIntentFacts?) -> Bool {
        isSucceededAndCaptured && !isPaidByAnAccount && !isDestinationCharge(intent: intent())
    }

    /// The group the charge names: its own `transfer_group`, else its PaymentIntent's; `nil` when it names none
    /// (it may still belong to the group of a transfer naming it as `source_transaction`) or cannot belong to one.
    public func namedTransferGroup(intent: @autoclosure () -> PaymentIntentFacts?) -> String? {
        guard canBelongToTransferGroup(intent: intent()) else { return nil }
        return transferGroup ?? intent()?.transferGroup
    }
}

extension TransferFacts {
    /// The transfer's group: its `transfer_group`, else (it names a `source_transaction` and no group) that charge's
    /// id; `nil` for a transfer tied to neither (a bonus from the available balance).
    public var transferGroupKey: String? { transferGroup ?? sourceTransactionID }
}
