import ReconCore

/// An object as the history keeps it: the facts the reconciler reads, and Stripe's JSON exactly as received.
public struct StoredObject<Facts: Sendable>: Sendable {
    public var facts: Facts
    /// The object's JSON as the API returned it (white space between tokens removed), so a range can be
    /// re-examined without the API.
    public var rawJSON: String

    public init(facts: Facts, rawJSON: String) {
        self.facts = facts
        self.rawJSON = rawJSON
    }
}

/// Objects to store in one transaction.
public struct ObjectBatch: Sendable {
    public var charges: [StoredObject<ChargeFacts>] = []
    public var paymentIntents: [StoredObject<PaymentIntentFacts>] = []
    public var transfers: [StoredObject<TransferFacts>] = []
    public var transferReversals: [StoredObject<TransferReversalFacts>] = []
    public var applicationFees: [StoredObject<ApplicationFeeFacts>] = []
    public var feeRefunds: [StoredObject<FeeRefundFacts>] = []
    public var refunds: [StoredObject<RefundFacts>] = []
    public var disputes: [StoredObject<DisputeFacts>] = []
    public var balanceTransactions: [StoredObject<BalanceTransactionFacts>] = []
    public var payouts: [StoredObject<PayoutFacts>] = []
    /// Which payout's `?payout=` list held each balance transaction (stored after the transactions; links are not
    /// objects and are not counted).
    public var payoutTransactions: [PayoutTransactionLink] = []

    public init() {}

    /// Every kind's objects, in the order the history stores them: the one list of the kinds a batch holds, which
    /// everything that goes through all of them (counting, appending, storing) reads.
    func visitKinds<Visitor: ObjectBatchVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(\.charges)
        try visitor.visit(\.paymentIntents)
        try visitor.visit(\.transfers)
        try visitor.visit(\.transferReversals)
        try visitor.visit(\.applicationFees)
        try visitor.visit(\.feeRefunds)
        try visitor.visit(\.refunds)
        try visitor.visit(\.disputes)
        try visitor.visit(\.balanceTransactions)
        try visitor.visit(\.payouts)
    }

    /// Number of objects in the batch.
    public var count: Int {
        var counter = Counter(batch: self)
        try? visitKinds(&counter)
        return counter.total
    }

    public var isEmpty: Bool { count == 0 && payoutTransactions.isEmpty }

    /// Appends another batch's objects.
    public mutating func append(contentsOf other: ObjectBatch) {
        var appender = Appender(batch: self, other: other)
        try? other.visitKinds(&appender)
        self = appender.batch
        payoutTransactions += other.payoutTransactions
    }

    private struct Counter: ObjectBatchVisitor {
        let batch: ObjectBatch
        var total = 0
        mutating func visit<Facts: StorableFacts>(_ kind: WritableKeyPath<ObjectBatch, [StoredObject<Facts>]>) {
            total += batch[keyPath: kind].count
        }
    }

    private struct Appender: ObjectBatchVisitor {
        var batch: ObjectBatch
        let other: ObjectBatch
        mutating func visit<Facts: StorableFacts>(_ kind: WritableKeyPath<ObjectBatch, [StoredObject<Facts>]>) {
            batch[keyPath: kind] += other[keyPath: kind]
        }
    }
}

/// Something done with each kind's objects of an ``ObjectBatch`` in turn (see ``ObjectBatch/visitKinds(_:)``).
protocol ObjectBatchVisitor {
    mutating func visit<Facts: StorableFacts>(_ kind: WritableKeyPath<ObjectBatch, [StoredObject<Facts>]>) throws
}

/// What a write did: objects seen for the first time, objects whose content changed, objects unchanged since an
/// earlier run. Each object counts once per run: seeing it again in the same run (embedded in one page, listed in
/// another) counts nothing.
public struct WriteOutcome: Sendable, Equatable {
    public var new = 0
    public var updated = 0
    public var unchanged = 0

    public init(new: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.new = new
        self.updated = updated
        self.unchanged = unchanged
    }

    /// The change a write by `run` made to an object whose row now names `firstSeen` and `changed` runs: `new`,
    /// `updated`, or `nil` (unchanged). Each object counts once per run: a later sighting in the same run with
    /// other content finds its change already recorded.
    static func change(firstSeen: Int64, changed: Int64, run: Int64) -> String? {
        firstSeen == run ? "new" : (changed == run ? "updated" : nil)
    }

    /// Counts one object written by `run` (see ``change(firstSeen:changed:run:)``); a change counts only when this
    /// write `recorded` it in `changes`.
    mutating func count(firstSeen: Int64, changed: Int64, run: Int64, recorded: Bool) {
        guard let change = Self.change(firstSeen: firstSeen, changed: changed, run: run) else {
            unchanged += 1
            return
        }
        guard recorded else { return }
        if change == "new" { new += 1 } else { updated += 1 }
    }

    public static func + (lhs: WriteOutcome, rhs: WriteOutcome) -> WriteOutcome {
        WriteOutcome(
            new: lhs.new + rhs.new, updated: lhs.updated + rhs.updated, unchanged: lhs.unchanged + rhs.unchanged)
    }
}

/// A finished slice of extraction: one resource over `[from, to)`, committed with its objects.
public struct ExtractionWindow: Sendable, Hashable, Codable {
    public var resource: String
    public var from: Int64
    public var to: Int64

    public init(resource: String, from: Int64, to: Int64) {
        self.resource = resource
        self.from = from
        self.to = to
    }
}
