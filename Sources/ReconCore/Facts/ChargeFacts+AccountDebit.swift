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

    /// What a succeeded account debit took from the account: `amount_captured − amount_refunded` (a debit refunded
    /// gave the money back); `nil` for a charge that is no succeeded debit, or whose difference overflows.
    public var debitedAmount: Int64? {
        guard isAccountDebit, isSucceededAndCaptured else { return nil }
        let (amount, overflow) = amountCaptured.subtractingReportingOverflow(amountRefunded)
        return overflow ? nil : amount
    }
}
