/// A payout's `status` (https://docs.stripe.com/api/payouts/object#payout_object-status). Open.
public struct PayoutStatus: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// Arrived in the bank (as far as Stripe knows).
    public static let paid = PayoutStatus(rawValue: "paid")
    /// Created, not yet sent to the bank.
    public static let pending = PayoutStatus(rawValue: "pending")
    /// Sent to the bank, not yet arrived.
    public static let inTransit = PayoutStatus(rawValue: "in_transit")
    /// Canceled before it was sent: its funds are back in the balance.
    public static let canceled = PayoutStatus(rawValue: "canceled")
    /// Returned by the bank: its funds are back in the balance (`failure_balance_transaction`).
    public static let failed = PayoutStatus(rawValue: "failed")

    /// The five documented values.
    public static let knownValues: [PayoutStatus] = [
        paid, pending, inTransit, canceled, failed,
    ]
}

/// A payout's `type` (https://docs.stripe.com/api/payouts/object#payout_object-type). Open.
public struct PayoutType: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// To a bank account.
    public static let bankAccount = PayoutType(rawValue: "bank_account")
    /// To a debit card.
    public static let card = PayoutType(rawValue: "card")

    /// The two documented values.
    public static let knownValues: [PayoutType] = [bankAccount, card]
}
