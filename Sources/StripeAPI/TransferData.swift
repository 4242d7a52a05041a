/// The `transfer_data` of a destination charge or its PaymentIntent: where the funds go, and how much of them.
///
/// See https://docs.stripe.com/api/charges/object#charge_object-transfer_data and
/// https://docs.stripe.com/api/payment_intents/object#payment_intent_object-transfer_data.
public struct TransferData: Decodable, Equatable, Sendable {
    /// The amount transferred to ``destination``, in minor units of the charge's currency; `nil` when the whole
    /// charge amount is transferred (the "application fee" and "full transfer" styles).
    public let amount: Int64?
    /// The connected account that receives the funds (an id or an expanded account).
    public let destination: ExpandableID

    /// The connected account's id, for example `acct_1PgafTB7WZ01zgkW`.
    public var destinationAccountID: String { destination.id }

    private enum CodingKeys: String, CodingKey {
        case amount
        case destination
    }
}
