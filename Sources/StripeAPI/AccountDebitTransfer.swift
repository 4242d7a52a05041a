import ReconCore

/// An account debit retrieved for the transfer it was made with (`GET /v1/charges/{id}?expand[]=source_transfer`;
/// docs/RULES.md, "The platform's other money"): a charge of which only the `id` and the expanded `source_transfer`
/// are read. Stripe documents `source_transfer` as expandable on a charge (https://docs.stripe.com/api/charges/object);
/// on an account debit it is the connected account's transfer to the platform, whose `metadata` and `transfer_group`
/// the platform set when it debited the account with a transfer.
public struct AccountDebitTransfer: StripeObject {
    /// `"charge"`.
    public static let objectType = "charge"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<AccountDebitTransfer>
    /// The debit's id (`py_…`).
    public let id: String
    /// The transfer it was made with; `nil` when Stripe sent none.
    public let sourceTransfer: DebitSourceTransfer?

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case sourceTransfer = "source_transfer"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        object = try container.decode(ObjectTypeCheck<AccountDebitTransfer>.self, forKey: .object)
        id = try container.decode(String.self, forKey: .id)
        sourceTransfer = try container.decodeIfPresent(SourceTransferMember.self, forKey: .sourceTransfer)?.transfer
    }
}

/// A `source_transfer` member: the transfer's id alone (Stripe did not expand it: it names nothing), or the transfer,
/// of which its `id`, `metadata` and `transfer_group` are read. A `metadata` or `transfer_group` of another shape is
/// read as none rather than failing the debit.
private struct SourceTransferMember: Decodable {
    let transfer: DebitSourceTransfer

    private enum CodingKeys: String, CodingKey {
        case id
        case metadata
        case transferGroup = "transfer_group"
    }

    init(from decoder: any Decoder) throws {
        if let id = try? decoder.singleValueContainer().decode(String.self) {
            transfer = DebitSourceTransfer(transferID: id)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transfer = DebitSourceTransfer(
            transferID: try container.decode(String.self, forKey: .id),
            metadata: (try? container.decodeIfPresent([String: String].self, forKey: .metadata)) ?? [:],
            transferGroup: (try? container.decodeIfPresent(String.self, forKey: .transferGroup)) ?? nil)
    }
}
