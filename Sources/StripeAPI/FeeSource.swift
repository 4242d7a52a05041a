/// What an application fee was collected on (`fee_source`): a charge or a payout.
///
/// See https://docs.stripe.com/api/application_fees/object#application_fee_object-fee_source.
public struct FeeSource: Decodable, Equatable, Sendable {
    /// Whether the fee came from a charge or a payout.
    public let type: FeeSourceType
    /// The charge's id when ``type`` is `charge` (for a destination charge, the connected account's `py_…`).
    public let charge: String?
    /// The payout's id when ``type`` is `payout`.
    public let payout: String?

    private enum CodingKeys: String, CodingKey {
        case type
        case charge
        case payout
    }
}
