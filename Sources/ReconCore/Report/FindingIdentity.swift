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

/// A finding an earlier run reported about an object this run judged, that this run no longer finds.
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

/// The object whose judging raised a finding: the charge whose application fee or transfer is wrong, the refund,
/// the dispute, the payout. A run resolves an earlier finding only when it judged that object again (docs/REPORTS.md):
/// created in its range, or read again as a late outcome.
public struct FindingSubject: Sendable, Hashable, Codable {
    /// `ch_…`, `re_…`, `dp_…`, `po_…`, …
    public var id: String
    /// When Stripe created it, Unix seconds.
    public var created: Int64

    public init(id: String, created: Int64) {
        self.id = id
        self.created = created
    }
}

/// A finding of a run, with the object whose judging raised it.
public struct Finding: Sendable, Hashable {
    public var key: FindingKey
    /// `nil` for a finding about no judged object (an object Stripe answered 404 for).
    public var subject: FindingSubject?

    public init(key: FindingKey, subject: FindingSubject?) {
        self.key = key
        self.subject = subject
    }
}
