/// The `source` of a balance transaction: the id of the object that caused it or, with
/// `expand[]=data.source`, the object itself
/// (https://docs.stripe.com/api/balance_transactions/object#balance_transaction_object-source).
///
/// Stripe can expand the source to many object types (payouts, top-ups, Issuing objects, …). The seven that
/// reconciliation reads decode into their models; any other becomes ``other(id:object:)``, so a new or
/// unmodelled type never fails a page.
public indirect enum BalanceTransactionSource: Sendable, Equatable, Identifiable {
    /// Only the id was sent (Stripe's default).
    case id(String)
    /// An expanded charge (also a connected account's payment `py_…`).
    case charge(Charge)
    /// An expanded transfer.
    case transfer(Transfer)
    /// An expanded application fee.
    case applicationFee(ApplicationFee)
    /// An expanded refund.
    case refund(Refund)
    /// An expanded dispute.
    case dispute(Dispute)
    /// An expanded transfer reversal.
    case transferReversal(TransferReversal)
    /// An expanded application fee refund.
    case feeRefund(FeeRefund)
    /// An expanded object of a type not modelled here; `object` is its `object` field (`nil` if it had none).
    case other(id: String, object: String?)

    /// The source object's id, whichever form Stripe sent.
    public var id: String {
        switch self {
        case .id(let id): id
        case .charge(let charge): charge.id
        case .transfer(let transfer): transfer.id
        case .applicationFee(let fee): fee.id
        case .refund(let refund): refund.id
        case .dispute(let dispute): dispute.id
        case .transferReversal(let reversal): reversal.id
        case .feeRefund(let feeRefund): feeRefund.id
        case .other(let id, _): id
        }
    }

    /// The `object` field of the expanded source (`"charge"`, `"payout"`, …); `nil` when only the id was sent.
    public var objectType: String? {
        switch self {
        case .id: nil
        case .charge: Charge.objectType
        case .transfer: Transfer.objectType
        case .applicationFee: ApplicationFee.objectType
        case .refund: Refund.objectType
        case .dispute: Dispute.objectType
        case .transferReversal: TransferReversal.objectType
        case .feeRefund: FeeRefund.objectType
        case .other(_, let object): object
        }
    }
}

extension BalanceTransactionSource: Decodable {
    private enum CodingKeys: String, CodingKey {
        case id
        case object
    }

    /// Decodes a JSON string as ``id(_:)``, and a JSON object by its `object` field. A modelled type is held to
    /// its model's rules (a charge without an amount fails); any other type only needs a string `id`.
    public init(from decoder: any Decoder) throws {
        if let id = try? decoder.singleValueContainer().decode(String.self) {
            self = .id(id)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let object = try container.decodeIfPresent(String.self, forKey: .object)
        switch object {
        case Charge.objectType: self = .charge(try Charge(from: decoder))
        case Transfer.objectType: self = .transfer(try Transfer(from: decoder))
        case ApplicationFee.objectType: self = .applicationFee(try ApplicationFee(from: decoder))
        case Refund.objectType: self = .refund(try Refund(from: decoder))
        case Dispute.objectType: self = .dispute(try Dispute(from: decoder))
        case TransferReversal.objectType: self = .transferReversal(try TransferReversal(from: decoder))
        case FeeRefund.objectType: self = .feeRefund(try FeeRefund(from: decoder))
        default: self = .other(id: try container.decode(String.self, forKey: .id), object: object)
        }
    }
}
