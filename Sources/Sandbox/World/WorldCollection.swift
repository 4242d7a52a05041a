/// A loss the platform covers for a connected account (docs/RULES.md, "The platform's other money"): Stripe collects
/// from the platform (a `connect_collection_transfer` balance transaction) for an account that stayed negative.
package struct WorldCollection: Sendable, Hashable {
    /// The collection transfer's own number (its `connct_…` id).
    package var index: Int
    /// The account collected for (its index); `-1` for the collection whose source Stripe serves as its id alone even
    /// when asked to expand it (bad input: the loss counts with no account).
    package var account: Int16
}
