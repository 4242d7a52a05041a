/// Receives what the extractor is doing, for a live terminal line or periodic log lines.
public protocol ExtractionProgress: Sendable {
    /// A page of `resource` was stored: `objects` items, `total` so far for that resource.
    func pageStored(resource: String, objects: Int, total: Int) async
    /// The list phase ended and `count` follow-ups (by id or by filtered list) are planned for `round`.
    func followUpsPlanned(round: Int, count: Int) async
}

/// What one extraction did.
public struct ExtractionSummary: Sendable, Equatable {
    /// Objects stored per resource or follow-up kind (items of pages and retrieves, embedded ones excluded).
    public var objectsByResource: [String: Int] = [:]
    /// New, updated and unchanged objects across everything stored (embedded ones included).
    public var new = 0
    public var updated = 0
    public var unchanged = 0
    public var pages = 0
    public var followUps = 0
    public var followUpRounds = 0
    /// Referenced objects Stripe answered 404 for.
    public var missing = 0
    /// Windows skipped because an interrupted run had finished them.
    public var resumedWindows = 0
    /// `to` after the settle margin, when it moved.
    public var clampedTo: Int64?
    /// Objects of the look-back window read again because they were not final (docs/EXTRACTION.md, "Late outcomes"),
    /// and how many of them a read found changed.
    public var lateReads = 0
    public var lateOutcomes = 0
    /// Charges of the look-back window whose money a reversal or transfer of the range moved (docs/RULES.md, "Money
    /// moved by hand, across time"): their refunds and disputes are judged again.
    public var movedByHand = 0
    /// Whether the balance transactions created after the range, up to Stripe's balance read, were listed with it
    /// (`false` when the history already carried a snapshot back to the range's end).
    public var balanceTransactionsAfterRange = false
    /// Whether Stripe's balance was read (`GET /v1/balance`).
    public var balanceRead = false
    /// Stripe Balance reports compared (per range and currency), this range's and earlier ranges' not published
    /// before.
    public var stripeReportsCompared = 0

    /// The resource that objects read again for late outcomes count under.
    public static let lateReadsResource = "late outcomes"

    public init() {}

    public var objects: Int { objectsByResource.values.reduce(0, +) }
}
