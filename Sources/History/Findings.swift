import ReconCore

/// What recording a run's findings found out.
public struct FindingsUpdate: Sendable {
    /// The findings seen before by an earlier run and still there; every other current finding is new.
    public var open: Set<FindingKey>
    /// Findings of earlier runs about objects this run judged that are gone now.
    public var resolved: [ResolvedFinding]

    public init(open: Set<FindingKey>, resolved: [ResolvedFinding]) {
        self.open = open
        self.resolved = resolved
    }
}
