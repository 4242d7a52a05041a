/// Account debits (docs/RULES.md, "The platform's other money"): a platform charge whose payment method is a connected
/// account (Stripe's "Debit a connected account"; a `py_…` whose `source` is the `acct_…`) is money the account gave
/// the platform, never a sale: no platform-fee row, no transfer group, not in `gross`. The one definition the rules and
/// the history's follow-ups share.
extension ChargeFacts {
    /// `payment_method_details.type` of an account debit.
    public static let accountDebitMethod = "stripe_account"

    /// Whether the charge is an account debit: its payment method is `stripe_account` (a `py_…` id alone proves
    /// nothing: the platform's own bank debits are `py_…` too).
    public var isAccountDebit: Bool { paymentMethodType == Self.accountDebitMethod }

    /// The connected account an account debit took the money from (its `source`); `nil` for any other charge.
    public var debitedAccount: String? { isAccountDebit ? sourceID : nil }

    /// The metadata keys whose values link a debit to what it recovers, by default (`reconcile.debit_link_keys`).
    public static let defaultDebitLinkKeys = [
        "charge", "charge_id", "stripe_charge_id", "payment_intent", "dispute", "refund",
    ]

    /// The ids an account debit names (docs/RULES.md, "The platform's other money"): the values of its `metadata`
    /// under `keys`, in their order, then its `transfer_group`, without repeats or empty values; empty for a charge
    /// that is no account debit. Each may name a charge, a PaymentIntent, a refund, a dispute or a transfer group.
    public func debitLinks(keys: [String]) -> [String] {
        guard isAccountDebit else { return [] }
        var links: [String] = []
        for value in keys.compactMap({ metadata[$0] }) + [transferGroup].compactMap({ $0 })
        where !value.isEmpty && !links.contains(value) {
            links.append(value)
        }
        return links
    }

    /// What a succeeded account debit took from the account: `amount_captured − amount_refunded` (a debit refunded
    /// gave the money back); `nil` for a charge that is no succeeded debit, or whose difference overflows.
    public var debitedAmount: Int64? {
        guard isAccountDebit, isSucceededAndCaptured else { return nil }
        let (amount, overflow) = amountCaptured.subtractingReportingOverflow(amountRefunded)
        return overflow ? nil : amount
    }
}
