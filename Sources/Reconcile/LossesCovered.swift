import ReconCore

// MARK: - Losses covered for connected accounts (docs/RULES.md, "The platform's other money")

extension ReportBuilder {
    /// Every `connect_collection_transfer` of the range: when a connected account stays negative, Stripe collects from
    /// the platform; the loss (`−net`) counts as `losses_covered` in that account's statement and the Summary. One whose
    /// source does not name the account counts with no account, and a `collection_account_unknown` exception says so.
    /// (`reserve_transaction`s move money into and out of the Connect reserve: never a loss.)
    mutating func lossesCovered(_ collections: [CollectionTransfer]) {
        for collection in collections where countedCollections.insert(collection.balanceTransactionID).inserted {
            guard let loss = collection.loss else {
                overflow(
                    collection.balanceTransactionID, currency: collection.currency, created: collection.created,
                    what: "loss covered")
                continue
            }
            if collection.account == nil { unknownCollectionAccount(collection, loss: loss) }
            addToStatementAndSummary(
                account: collection.account, currency: collection.currency, \.lossesCovered, \.lossesCovered, loss,
                objectID: collection.balanceTransactionID, created: collection.created, what: "losses covered")
        }
    }

    private mutating func unknownCollectionAccount(_ collection: CollectionTransfer, loss: Int64) {
        let why =
            collection.sourceRead
            ? "its source, expanded, names no connected account"
            : "its source has not been read (extract the range again with this release)"
        exception(
            .collectionAccountUnknown, collection.balanceTransactionID, related: nil, currency: collection.currency,
            created: collection.created, actual: .amount(loss),
            message: "Stripe collected \(describe(loss, collection.currency)) from the platform to cover a connected "
                + "account's negative balance, but \(why): the loss is counted under no account. Find the account in "
                + "the Stripe Dashboard (Balance → the transaction).")
    }
}
