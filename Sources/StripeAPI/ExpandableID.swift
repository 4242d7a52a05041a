/// A reference to an object connect-recon does not model (a connected account, a Connect application), which
/// Stripe sends either as its id (`"acct_1PgafTB7WZ01zgkW"`) or expanded
/// (`{"id": "acct_…", "object": "account", …}`).
///
/// Only the id is kept, so both forms decode to equal values. See https://docs.stripe.com/api/expanding_objects
/// and, for accounts, https://docs.stripe.com/api/accounts/object.
public struct ExpandableID: Hashable, Sendable, Decodable, CustomStringConvertible {
    /// The referenced object's id, for example `acct_1PgafTB7WZ01zgkW`.
    public let id: String

    /// Wraps an id.
    public init(_ id: String) {
        self.id = id
    }

    private enum CodingKeys: String, CodingKey {
        case id
    }

    /// Decodes a JSON string, or any JSON object with a string `id`.
    public init(from decoder: any Decoder) throws {
        if let id = try? decoder.singleValueContainer().decode(String.self) {
            self.id = id
        } else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.id = try container.decode(String.self, forKey: .id)
        }
    }

    /// The id.
    public var description: String { id }
}
