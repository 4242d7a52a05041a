/// A finding as runs track it: identified by its kind and the object it is about.
public struct FindingKey: Sendable, Hashable, Codable {
    /// `skipped_transfer`, `unreversed_dispute`, or an exception kind such as `application_fee_missing`.
    public var kind: String
    /// The object the finding is about (`ch_…`, `dp_…`, …).
    public var objectID: String

    public init(kind: String, objectID: String) {
        self.kind = kind
        self.objectID = objectID
    }
}

/// A finding an earlier run of an overlapping range reported that this run no longer finds.
public struct ResolvedFinding: Sendable, Hashable, Codable {
    public var key: FindingKey
    /// The run that first reported it.
    public var firstRun: Int64
    /// The last run that still reported it.
    public var lastRun: Int64

    public init(key: FindingKey, firstRun: Int64, lastRun: Int64) {
        self.key = key
        self.firstRun = firstRun
        self.lastRun = lastRun
    }
}
