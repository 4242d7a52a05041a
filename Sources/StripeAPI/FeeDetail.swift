import ReconCore

/// One fee of a balance transaction (`fee_details[]`): Stripe's processing fee, an application fee, tax.
///
/// See https://docs.stripe.com/api/balance_transactions/object#balance_transaction_object-fee_details.
public struct FeeDetail: Decodable, Equatable, Sendable {
    /// The fee, in minor units of ``currency``; positive when assessed.
    public let amount: Int64
    /// The Connect application that earned the fee, for application fees.
    public let application: String?
    /// The fee's currency.
    public let currency: Currency
    /// Stripe's description, for example `"Dispute fee"`.
    public let description: String?
    /// What kind of fee this is.
    public let type: FeeDetailType

    private enum CodingKeys: String, CodingKey {
        case amount
        case application
        case currency
        case description
        case type
    }
}
