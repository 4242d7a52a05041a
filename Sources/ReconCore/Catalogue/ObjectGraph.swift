/// The object graph the catalogue declares, as the readers of a range need it: which kinds belong to a charge,
/// and in which order a part reads the objects around its charges. Derived from the entries' references and
/// ``ParentEdge``s; nothing here names a kind but the root.
public enum ObjectGraph {
    /// The kind a part of a range is built around: every other object is judged with its charge as context.
    public static let root: ObjectKind = .charge

    /// The kinds with an edge to the root (refunds, disputes, transfers, application fees), each with that edge, in
    /// the catalogue's order: the range's objects of these kinds are judged in their charge's part, or with their
    /// charge as context when it is not one of the range's.
    public static let rootChildren: [(kind: ObjectKind, edge: ParentEdge)] = ObjectKind.allCases.compactMap { kind in
        kind.entry.parents.first { $0.parent == root }.map { (kind, $0) }
    }

    /// One step of reading a part's context: the objects of `kind` that belong to what the part holds (`edges`,
    /// followed from parent to child) and those that what it holds names (`references`, by the kinds read before).
    public struct ContextStep: Sendable {
        public let kind: ObjectKind
        /// The kind's edges whose parent is read before it; a `nil` parent (any kind) takes every object held.
        public let edges: [ParentEdge]
        /// The kinds read before, each with its columns naming objects of `kind` (single ids, then JSON arrays).
        public let references: [(kind: ObjectKind, columns: [String], arrayColumns: [String])]
    }

    /// What a part reads around its charges, kind by kind: each kind after the kinds it belongs to, and the kinds
    /// whose edge may point to any kind (balance transactions) last. Kinds nothing held leads to (payouts) are not
    /// read as context.
    public static let contextSteps: [ContextStep] = {
        var placed: [ObjectKind] = [root]
        var steps: [ContextStep] = []
        func step(_ kind: ObjectKind) -> ContextStep? {
            let entry = kind.entry
            let edges = entry.parents.filter { $0.parent.map(placed.contains) ?? true }
            let references = placed.compactMap { earlier -> (ObjectKind, [String], [String])? in
                let (columns, arrays) = earlier.entry.columns(naming: kind)
                return columns.isEmpty && arrays.isEmpty ? nil : (earlier, columns, arrays)
            }
            return edges.isEmpty && references.isEmpty
                ? nil : ContextStep(kind: kind, edges: edges, references: references)
        }
        func ready(_ kind: ObjectKind, anyParent: Bool) -> Bool {
            let parents = kind.entry.parents
            guard anyParent || parents.allSatisfy({ $0.parent != nil }) else { return false }
            // Every parent kind that is read at all is read first.
            return parents.compactMap(\.parent).allSatisfy { placed.contains($0) || !reachable.contains($0) }
        }
        for anyParent in [false, true] {
            var progressed = true
            while progressed {
                progressed = false
                for kind in ObjectKind.allCases where !placed.contains(kind) && ready(kind, anyParent: anyParent) {
                    guard let next = step(kind) else { continue }
                    steps.append(next)
                    placed.append(kind)
                    progressed = true
                }
            }
        }
        return steps
    }()

    /// The kinds whose objects may be the `source` of a balance transaction: those that name balance transactions
    /// of their own (a charge, a refund, a dispute, …), so a part looks for the balance transactions of what it
    /// holds among those only.
    public static let sourcesOfBalanceTransactions: Set<ObjectKind> = Set(
        ObjectKind.allCases.filter { names($0, .balanceTransaction) })

    /// Whether objects of `kind` name objects of `named` in a column the history keeps (not by an edge).
    private static func names(_ kind: ObjectKind, _ named: ObjectKind) -> Bool {
        let (columns, arrays) = kind.entry.columns(naming: named)
        return !columns.isEmpty || !arrays.isEmpty
    }

    /// The kinds a charge leads to: its children by edges and what they name, transitively.
    private static let reachable: Set<ObjectKind> = {
        var found: Set<ObjectKind> = [root]
        var changed = true
        while changed {
            changed = false
            for kind in ObjectKind.allCases where !found.contains(kind) {
                let entry = kind.entry
                let belongs = entry.parents.contains { $0.parent.map(found.contains) ?? true }
                let named = found.contains { names($0, kind) }
                if belongs || named {
                    found.insert(kind)
                    changed = true
                }
            }
        }
        return found
    }()
}
