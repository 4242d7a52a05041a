/// What connect-recon knows about one kind of Stripe object, in one declaration (see ``ObjectKind/entry``): where
/// Stripe lists it, which of its members name other objects, what the range's lists expand, and where the history
/// keeps it. The range plan, the absorber that stores embedded objects, the folding of expansions back into ids,
/// the store and the follow-up queries read it instead of naming kinds and members themselves.
public struct CatalogueEntry: Sendable {
    /// Stripe's list endpoint (`/v1/charges`), where it has a top-level one; an object is retrieved by id at the
    /// same path followed by `/{id}`.
    public let listPath: String?
    /// The history's table of the kind's facts; Stripe's JSON is kept beside it in `<table>_raw`.
    public let table: String
    /// Members that name another object by its id, or hold it whole when a request expanded it, in the order the
    /// absorber stores the expanded ones.
    public let references: [Reference]
    /// Members holding a list object (`{"object":"list","data":[…]}`) of another kind, embedded by Stripe
    /// (a transfer's reversals) or only when expanded (a charge's refunds).
    public let lists: [NestedList]
    /// Members holding an array of whole objects, always sent (a dispute's balance transactions).
    public let arrays: [Reference]
    /// `expand[]` of every page of the kind's list over the range: what SPEC §4 reads about objects outside the
    /// range, brought by the list itself so that no request of its own is needed for it.
    public let rangeExpansions: [String]
    /// `expand[]` of a retrieve by id.
    public let retrieveExpansions: [String]
    /// `expand[]` of a late outcome read again by id (SPEC §3): what the rules read of it once its outcome came
    /// (a charge that settled: its transfer, application fee and balance transaction).
    public let lateReadExpansions: [String]

    /// A member naming another object.
    public struct Reference: Sendable {
        /// The member's JSON key (`payment_intent`).
        public let member: String
        /// The kind it names, when the history stores that kind; `nil` for objects it does not keep (customers,
        /// accounts) and for objects of a connected account (a transfer's `destination_payment`).
        public let kind: ObjectKind?
        /// The facts' column holding the id (`payment_intent_id`), when the history keeps one.
        public let column: String?

        public init(_ member: String, _ kind: ObjectKind? = nil, column: String? = nil) {
            self.member = member
            self.kind = kind
            self.column = column
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
        listPath: String?, table: String, references: [Reference], lists: [NestedList] = [],
        arrays: [Reference] = [], rangeExpansions: [String] = [], retrieveExpansions: [String] = [],
        lateReadExpansions: [String] = []
    ) {
        self.listPath = listPath
        self.table = table
        self.references = references
        self.lists = lists
        self.arrays = arrays
        self.rangeExpansions = rangeExpansions
        self.retrieveExpansions = retrieveExpansions
        self.lateReadExpansions = lateReadExpansions
    }

    /// The references whose objects the history stores, with the kind they name.
    public var storedReferences: [(member: String, kind: ObjectKind)] {
        references.compactMap { reference in reference.kind.map { (reference.member, $0) } }
    }

    /// The facts' columns naming balance transactions (`balance_transaction_id`, `failure_balance_transaction_id`).
    public var balanceTransactionColumns: [String] {
        references.compactMap { $0.kind == .balanceTransaction ? $0.column : nil }
    }
}
