/// Account debits (docs/RULES.md, "The platform's other money"): a platform charge whose payment method is a connected
/// account (Stripe's "Debit a connected account"; a `py_…` whose `source` is the `acct_…`) is money the account gave
/// the platform, never a sale: no platform-fee row, no transfer group, not in `gross`. The one definition the rules and
/// the history's follow-ups share.
extension ChargeFacts {
    /// `payment_method_details.type` of an account debit.
    public static let accountDebitMethod = "stripe_account"

    /// Whether the charge is an account debit: its payment method is `stripe_account` (a `py_…` id alone proves
    /// nothing: the platform's own bank debits are `py_…` too). Inlinable, as ``isPaidByAnAccount``.
    @inlinable public var isAccountDebit: Bool { paymentMethodType == Self.accountDebitMethod }

    /// `payment_method_details.type` of a connected account paying the platform from its Stripe balance.
    public static let stripeBalanceMethod = "stripe_balance"

    /// The `payment_method_details.type`s of a payment by a connected account (``isPaidByAnAccount``).
    public static let accountPaymentMethods = [accountDebitMethod, stripeBalanceMethod]

    /// Whether a connected account paid the charge: an account debit, or a payment from its Stripe balance (platform
    /// revenue from the account, never a recovery). Either is money the account gave the platform.
    ///
    /// Inlinable, so that the rules ask it of every charge where it is without copying the charge.
    @inlinable public var isPaidByAnAccount: Bool {
        paymentMethodType.map(Self.accountPaymentMethods.contains) ?? false
    }

    /// The connected account that paid the charge (its `source`); `nil` for a charge no account paid.
    public var debitedAccount: String? { isPaidByAnAccount ? sourceID : nil }

    /// The metadata keys whose values link a debit to what it recovers, by default (`reconcile.debit_link_keys`).
    public static let defaultDebitLinkKeys = [
        "charge", "charge_id", "stripe_charge_id", "payment_intent", "dispute", "refund",
    ]

    /// The ids an account debit names (docs/RULES.md, "The platform's other money"): the values of its `metadata`
    /// under `keys`, in their order, then its `transfer_group`, then the same of the transfer it was made with
    /// (``sourceTransfer``), without repeats or empty values; empty for a charge that is no account debit. Each may
    /// name a charge, a PaymentIntent, a refund, a dispute or a transfer group.
    public func debitLinks(keys: [String]) -> [String] {
        guard isAccountDebit else { return [] }
        var named: [String?] = keys.map { metadata[$0] } + [transferGroup]
        if let transfer = sourceTransfer { named += keys.map { transfer.metadata[$0] } + [transfer.transferGroup] }
        var links: [String] = []
        for value in named.compactMap({ $0 }) where !value.isEmpty && !links.contains(value) {
            links.append(value)
        }
        return links
    }

    /// The debit's links (``debitLinks(keys:)``) that may name something the history holds: all but
    /// ``linksHeldNowhere``. Refund and dispute recovery read these, so that a label of the platform's own (GOV.UK
    /// Pay's payment id as the transfer's group) does not make a debit naming the charge belong to something else.
    public func linksToHeldObjects(keys: [String]) -> [String] {
        debitLinks(keys: keys).filter { !linksHeldNowhere.contains($0) }
    }

    /// Every value a debit's links could take under any keys: its and its transfer's metadata values and groups.
    public var possibleDebitLinks: Set<String> {
        var values = Set(metadata.values).union([transferGroup].compactMap { $0 })
        if let transfer = sourceTransfer {
            values.formUnion(transfer.metadata.values)
            values.formUnion([transfer.transferGroup].compactMap { $0 })
        }
        values.remove("")
        return values
    }

    /// Whether an account debit names nothing itself (``debitLinks(keys:)`` of the `py_…` alone): the transfer it was
    /// made with may (``sourceTransfer``), and is read once.
    public func namesNothingItself(keys: [String]) -> Bool {
        guard isAccountDebit else { return false }
        var own = self
        own.sourceTransfer = nil
        return own.debitLinks(keys: keys).isEmpty
    }

    /// What a succeeded payment from an account (``isPaidByAnAccount``) took from it: `amount_captured −
    /// amount_refunded` (a refund gave the money back); `nil` for any other charge, or when the difference overflows.
    public var debitedAmount: Int64? {
        guard isPaidByAnAccount, isSucceededAndCaptured else { return nil }
        let (amount, overflow) = amountCaptured.subtractingReportingOverflow(amountRefunded)
        return overflow ? nil : amount
    }
}
