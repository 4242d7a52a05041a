/// A finding as the history tracks it across runs: identified by its kind and object id.
public struct FindingKey: Sendable, Hashable, Codable {
    /// `skipped_transfer`, `unreversed_dispute`, or an exception kind such as `application_fee_missing`.
    public var kind: String
    public var objectID: String

    public init(kind: String, objectID: String) {
        self.kind = kind
        self.objectID = objectID
    }
}

/// A finding an earlier run reported that this run no longer sees.
public struct ResolvedFinding: Sendable, Hashable, Codable {
    public var key: FindingKey
    public var firstRun: Int64
    public var lastRun: Int64

    public init(key: FindingKey, firstRun: Int64, lastRun: Int64) {
        self.key = key
        self.firstRun = firstRun
        self.lastRun = lastRun
    }
}

/// What recording a run's findings found out.
public struct FindingsUpdate: Sendable {
    /// The findings seen before by an earlier run and still there; every other current finding is new.
    public var open: Set<FindingKey>
    /// Findings of earlier runs over an overlapping range that are gone now.
    public var resolved: [ResolvedFinding]

    public init(open: Set<FindingKey>, resolved: [ResolvedFinding]) {
        self.open = open
        self.resolved = resolved
    }
}
