/// Stripe's list envelope (`"object": "list"`), returned by the list endpoints and embedded in some objects
/// (a transfer's `reversals`, an application fee's `refunds`).
///
/// See https://docs.stripe.com/api/pagination. An embedded list holds at most the 10 most recent items;
/// ``hasMore`` says whether the rest must be paged from ``url``.
public struct StripeList<Item: Decodable & Sendable>: Decodable, Sendable {
    /// Always `"list"`.
    public let object: String
    /// The path that lists these items, for example `/v1/transfers/tr_…/reversals`.
    public let url: String
    /// `true` when more items exist beyond ``data``.
    public let hasMore: Bool
    /// The items of this page, newest first.
    public let data: [Item]

    private enum CodingKeys: String, CodingKey {
        case object
        case url
        case hasMore = "has_more"
        case data
    }
}

extension StripeList: Equatable where Item: Equatable {}

extension StripeList where Item: StripeObject {
    /// The id of the last item: the `starting_after` cursor of the next page, `nil` for an empty page.
    public var lastID: String? { data.last?.id }
}
