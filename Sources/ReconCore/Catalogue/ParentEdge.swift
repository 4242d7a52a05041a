/// An edge of the object graph: a member by which an object names the object it belongs to (a refund's `charge`,
/// a transfer reversal's `transfer`). Declared on the child's ``CatalogueEntry``; followed backwards, from parent to
/// children, it tells what a charge's part holds beside the charge, which charges a range's refunds and disputes
/// bring into its scope, and which of a range's objects a charge's part judges.
public struct ParentEdge: Sendable {
    /// The member naming the parent (`charge`, `metadata[dispute_id]`).
    public let member: String
    /// The kind of the parent; `nil`: an object of any kind (a balance transaction's `source`).
    public let parent: ObjectKind?
    /// The child's facts column holding the parent's id.
    public let column: String
    /// Whether the edge is followed to children of any creation time, or only to those created in the range read.
    public let reach: Reach
    /// The prefix of the parent ids that name an object of `parent` (a transfer's `source_transaction` is a charge
    /// only when it starts with `ch_`); `nil`: every id does.
    public let parentIDPrefix: String?

    /// Which children of a parent an edge brings.
    public enum Reach: Sendable {
        /// Every child, whenever created: a charge's refunds and disputes count in its platform net however late.
        case anyTime
        /// Only the children created in the range read: an application fee names its charge, but the charge names
        /// its own fee, so older fees originating from it add nothing.
        case createdInRange
    }

    public init(
        _ member: String, to parent: ObjectKind?, column: String, reach: Reach = .anyTime,
        parentIDPrefix: String? = nil
    ) {
        self.member = member
        self.parent = parent
        self.column = column
        self.reach = reach
        self.parentIDPrefix = parentIDPrefix
    }
}
