import ReconCore

/// One item of an extraction's work, taken by one worker: a list stream, a retrieve by id, a planning step.
enum ExtractionWork: Sendable {
    case list(ListStream)
    /// One object by id.
    case retrieve(kind: ObjectKind, id: String)
    /// A late outcome read again by id, with what the rules read of it once its outcome came.
    case lateRead(kind: ObjectKind, id: String)
    /// A balance transaction of the range by id with its source expanded, and the source's transfer: the transfer
    /// reversal of an older transfer, which has no endpoint of its own (docs/EXTRACTION.md, "Money moved by hand").
    case reversalOfTransaction(id: String)
    /// A `connect_collection_transfer` balance transaction of the range by id with its source expanded: the connected
    /// account the platform covered a negative balance of (docs/EXTRACTION.md, "The platform's other money").
    case collectionOfTransaction(id: String)
    /// An account debit of the range by id with its `source_transfer` expanded: the connected account's transfer it
    /// was made with, whose labels may name what it recovers (docs/EXTRACTION.md, "The platform's other money").
    case sourceTransferOfDebit(id: String)
    /// Plan the follow-ups while the balance transactions list still pages.
    case planFollowUps
    /// Plan the lists of what each payout of the range paid out, as soon as the payouts list has ended.
    case planPayoutLists
    /// Search a connected account's transfers for the repayments of won disputes.
    case repaymentSearch(RepaymentSearch)
    /// List what a payout paid out, in parallel windows when it is long.
    case payoutTransactions(PayoutListing)
    /// Read Stripe's balance, then list what carries it back to the range (docs/RULES.md, "The books close").
    case readBalance
    /// Ask Stripe's Reporting API for its Balance reports of the range (and of earlier ones not published before)
    /// in these currencies.
    case compareStripeReports([Currency])

    /// Identifies a follow-up so it is requested once per run.
    var key: String {
        switch self {
        case .list(let stream):
            "list \(stream.path ?? stream.kind.rawValue) \(stream.filter.map { "\($0.0)=\($0.1)" }) "
                + (stream.window.map { "\($0.lowerBound)..<\($0.upperBound)" } ?? "")
        case .retrieve(let kind, let id): "get \(kind.rawValue) \(id)"
        case .lateRead(let kind, let id): "read again \(kind.rawValue) \(id)"
        case .reversalOfTransaction(let id): "get the reversal of \(id)"
        case .collectionOfTransaction(let id): "get the collection of \(id)"
        case .sourceTransferOfDebit(let id): "get the source transfer of \(id)"
        case .planFollowUps: "plan"
        case .planPayoutLists: "plan payouts"
        case .repaymentSearch(let search): "repayments \(search.destination) \(search.disputeIDs) \(search.since)"
        case .payoutTransactions(let listing): "payout transactions \(listing.payoutID)"
        case .readBalance: "balance"
        case .compareStripeReports(let currencies): "stripe reports \(currencies.map(\.rawValue))"
        }
    }
}
