/// What connect-recon knows about one kind of Stripe object, in one declaration (see ``ObjectKind/entry``): where
/// Stripe lists it, which of its members name other objects, what the range's lists expand, and where the history
/// keeps it. The range plan, the absorber that stores embedded objects, the folding of expansions back into ids,
/// the store and the follow-up queries read it instead of naming kinds and members themselves.
public struct CatalogueEntry: Sendable {
    /// The kind's facts: what the history stores and the rules read of it.
    public let facts: any ObjectFacts.Type
    /// Stripe's list endpoint (`/v1/charges`), where it has a top-level one; an object is retrieved by id at the
    /// same path followed by `/{id}`.
    public let listPath: String?
    /// The history's table of the kind's facts; Stripe's JSON is kept beside it in `<table>_raw`.
    public let table: String
    /// Members that name another object by its id, or hold it whole when a request expanded it, in the order the
    /// absorber stores the expanded ones.
    public let references: [Reference]
    /// The edges to the objects this kind belongs to (a refund's charge), child → parent: see ``ParentEdge``. The
    /// references marked `parent`, then the edges that are no reference (a transfer's `metadata[dispute_id]`).
    public let parents: [ParentEdge]
    /// Members holding a list object (`{"object":"list","data":[…]}`) of another kind, embedded by Stripe
    /// (a transfer's reversals) or only when expanded (a charge's refunds).
    public let lists: [NestedList]
    /// Members holding an array of whole objects, always sent (a dispute's balance transactions).
    public let arrays: [Reference]
    /// Whether the range's objects of the kind are listed over the range's windows (docs/EXTRACTION.md): those of a
    /// kind not listed come embedded (PaymentIntents inside charges) or are read by id.
    public let listedOverRange: Bool
    /// `expand[]` of every page of the kind's list over the range: what docs/RULES.md reads about objects outside the
    /// range, brought by the list itself so that no request of its own is needed for it.
    public let rangeExpansions: [String]
    /// `expand[]` of a retrieve by id.
    public let retrieveExpansions: [String]
    /// `expand[]` of a late outcome read again by id (docs/EXTRACTION.md): what the rules read of it once its outcome
    /// came (a charge that settled: its transfer, application fee and balance transaction).
    public let lateReadExpansions: [String]
    /// How the reconcile's parts (`HistoryParts`) bring the range's objects of the kind to the rules.
    public let judged: Judging

    /// How the range's objects of a kind come to the rules, part by part.
    public enum Judging: Sendable, Equatable {
        /// With what they belong to: a charge and the objects with an edge to it (``ObjectGraph/rootChildren``),
        /// or as the context of those (a PaymentIntent, a reversal, a fee refund); the range's balance transactions
        /// also make the ledger's part.
        case withTheirCharge
        /// In parts of their own, the range's objects a part size at a time: no charge leads to them.
        case inPartsOfTheirOwn
        /// In parts of their own with what `?payout=` listed for them (`HistoryParts`' payout parts).
        case withWhatTheyPaidOut
    }

    /// A member naming another object.
    public struct Reference: Sendable {
        /// The member's JSON key (`payment_intent`).
        public let member: String
        /// The kind it names, when the history stores that kind; `nil` for objects it does not keep (customers,
        /// accounts) and for objects of a connected account (a transfer's `destination_payment`).
        public let kind: ObjectKind?
        /// The facts' column holding the id (`payment_intent_id`), when the history keeps one.
        public let column: String?
        /// When the member names the object this one belongs to (a refund's `charge`): which children the edge
        /// brings (see ``ParentEdge``).
        public let parentReach: ParentEdge.Reach?
        /// See ``ParentEdge/parentIDPrefix``.
        public let parentIDPrefix: String?
        /// The member names an object of one of several kinds, told by the `object` member of the object itself (a
        /// balance transaction's `source`): when a request expanded it into a kind the history stores, that object
        /// is stored as its own (``kind`` is then `nil`).
        public let anyKind: Bool

        public init(
            _ member: String, _ kind: ObjectKind? = nil, column: String? = nil, parent reach: ParentEdge.Reach? = nil,
            parentIDPrefix: String? = nil, anyKind: Bool = false
        ) {
            self.member = member
            self.kind = kind
            self.column = column
            self.parentReach = reach
            self.parentIDPrefix = parentIDPrefix
            self.anyKind = anyKind
        }
    }

    /// A member holding a list object of another kind.
    public struct NestedList: Sendable {
        public let member: String
        public let kind: ObjectKind
        /// Present only when a request expands it (a charge's `refunds` since API version 2022-11-15).
        public let expansionOnly: Bool

        public init(_ member: String, _ kind: ObjectKind, expansionOnly: Bool = false) {
            self.member = member
            self.kind = kind
            self.expansionOnly = expansionOnly
        }
    }

    public init(
        facts: any ObjectFacts.Type, listPath: String?, listedOverRange: Bool = false, table: String,
        references: [Reference],
        otherParents: [ParentEdge] = [], lists: [NestedList] = [],
        arrays: [Reference] = [], rangeExpansions: [String] = [], retrieveExpansions: [String] = [],
        lateReadExpansions: [String] = [], judged: Judging = .withTheirCharge
    ) {
        self.facts = facts
        self.listPath = listPath
        self.listedOverRange = listedOverRange
        self.table = table
        self.references = references
        self.parents =
            references.compactMap { reference in
                guard let reach = reference.parentReach, let column = reference.column else { return nil }
                return ParentEdge(
                    reference.member, to: reference.kind, column: column, reach: reach,
                    parentIDPrefix: reference.parentIDPrefix)
            } + otherParents
        self.lists = lists
        self.arrays = arrays
        self.rangeExpansions = rangeExpansions
        self.retrieveExpansions = retrieveExpansions
        self.lateReadExpansions = lateReadExpansions
        self.judged = judged
    }

    /// The references whose objects the history stores, with the kind they name.
    public var storedReferences: [(member: String, kind: ObjectKind)] {
        references.compactMap { reference in reference.kind.map { (reference.member, $0) } }
    }

    /// The edge to a parent of kind `parent`. Every kind asked for this way has one; a kind without is a mistake
    /// in the asking code.
    public func edge(to parent: ObjectKind) -> ParentEdge {
        guard let edge = parents.first(where: { $0.parent == parent }) else {
            preconditionFailure("the catalogue declares no edge from \(table) to \(parent)")
        }
        return edge
    }

    /// The facts' column of the reference `member` (`transfer` → `transfer_id`). The history keeps a column for
    /// every member asked for this way; a member without one is a mistake in the asking code.
    public func column(of member: String) -> String {
        guard let column = references.first(where: { $0.member == member })?.column else {
            preconditionFailure("the catalogue keeps no column for \(table).\(member)")
        }
        return column
    }

    /// The facts' columns naming balance transactions (`balance_transaction_id`, `failure_balance_transaction_id`).
    public var balanceTransactionColumns: [String] { columns(naming: .balanceTransaction).single }

    /// The facts' columns naming objects of `kind`, leaving out the edges to the object this one belongs to: those
    /// holding one id, and those holding a JSON array of ids.
    public func columns(naming kind: ObjectKind) -> (single: [String], arrays: [String]) {
        (
            references.filter { $0.kind == kind && $0.parentReach == nil }.compactMap(\.column),
            arrays.filter { $0.kind == kind }.compactMap(\.column)
        )
    }
}
