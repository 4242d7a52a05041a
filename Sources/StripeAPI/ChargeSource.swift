/// A charge's `source`: on an account debit (`payment_method_details.type` `stripe_account`), the connected account
/// the platform debited, sent as `{"id": "acct_…", "object": "account"}`; on a legacy charge, the card or source it
/// was paid with (https://docs.stripe.com/connect/account-debits). Read leniently: only the id and the object type
/// are kept, and a source of a shape Stripe adds later (or without an id) decodes as one without them rather than
/// failing its charge.
public struct ChargeSource: Sendable, Equatable, Decodable {
    /// The source object's id (`acct_…` for an account debit); `nil` when it has none.
    public var id: String?
    /// Its `object` (`"account"`, `"card"`, …); `nil` when only an id was sent.
    public var objectType: String?

    public init(id: String?, objectType: String? = nil) {
        self.id = id
        self.objectType = objectType
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case object
    }

    /// A JSON string is the id alone; a JSON object gives its `id` and `object` when they are strings.
    public init(from decoder: any Decoder) throws {
        if let id = try? decoder.singleValueContainer().decode(String.self) {
            self.init(id: id)
            return
        }
        let container = try? decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: (try? container?.decodeIfPresent(String.self, forKey: .id)) ?? nil,
            objectType: (try? container?.decodeIfPresent(String.self, forKey: .object)) ?? nil)
    }
}

/// A charge's `payment_method_details`, of which reconciliation reads only the `type`: `card`, `us_bank_account`, …,
/// and `stripe_account` for an account debit, `stripe_balance` for an account paying the platform from its Stripe
/// balance. Every other member is left unread.
public struct PaymentMethodDetails: Sendable, Equatable, Decodable {
    /// The payment method's type, as Stripe writes it; `nil` when absent.
    public var type: String?

    public init(type: String?) { self.type = type }

    private enum CodingKeys: String, CodingKey {
        case type
    }

    public init(from decoder: any Decoder) throws {
        let container = try? decoder.container(keyedBy: CodingKeys.self)
        type = (try? container?.decodeIfPresent(String.self, forKey: .type)) ?? nil
    }
}
