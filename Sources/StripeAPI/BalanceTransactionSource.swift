/// The `source` of a balance transaction: the id of the object that caused it, sent as the id alone (Stripe's
/// default) or, with `expand[]=data.source`, as the object itself
/// (https://docs.stripe.com/api/balance_transactions/object#balance_transaction_object-source).
///
/// Stripe can expand the source to many object types (charges, transfers, payouts, top-ups, Issuing objects, …);
/// reconciliation reads only which object it was (the history joins it by id), so any type decodes, new ones
/// included, and only its `id` is required.
public struct BalanceTransactionSource: Sendable, Equatable, Identifiable {
    /// The source object's id, whichever form Stripe sent.
    public var id: String
    /// The `object` field of the expanded source (`"charge"`, `"payout"`, …); `nil` when only the id was sent.
    public var objectType: String?
    /// The `destination` of an expanded `connect_collection_transfer`: the connected account Stripe collected for
    /// (its id, or the id of the expanded account); `nil` for any other source, or one sent as its id alone.
    public var destination: String?

    public init(id: String, objectType: String? = nil, destination: String? = nil) {
        self.id = id
        self.objectType = objectType
        self.destination = destination
    }
}

extension BalanceTransactionSource: Decodable {
    private enum CodingKeys: String, CodingKey {
        case id
        case object
        case destination
    }

    /// The `object` of a source whose `destination` is read.
    static let collectionTransferType = "connect_collection_transfer"

    /// Decodes a JSON string as the id alone, and a JSON object by its string `id` (and `object` and `destination`,
    /// when present; a `destination` of another shape is left out rather than failing the transaction).
    public init(from decoder: any Decoder) throws {
        if let id = try? decoder.singleValueContainer().decode(String.self) {
            self.init(id: id)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let objectType = try container.decodeIfPresent(String.self, forKey: .object)
        self.init(
            id: try container.decode(String.self, forKey: .id), objectType: objectType,
            destination: objectType == Self.collectionTransferType
                ? (try? container.decodeIfPresent(ExpandableID.self, forKey: .destination))??.id : nil)
    }
}
