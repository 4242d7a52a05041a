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

    /// Number of objects in the batch.
    public var count: Int {
        charges.count + paymentIntents.count + transfers.count + transferReversals.count + applicationFees.count
            + feeRefunds.count + refunds.count + disputes.count + balanceTransactions.count + payouts.count
    }

    public var isEmpty: Bool { count == 0 && payoutTransactions.isEmpty }

    /// Appends another batch's objects.
    public mutating func append(contentsOf other: ObjectBatch) {
        charges += other.charges
        paymentIntents += other.paymentIntents
        transfers += other.transfers
        transferReversals += other.transferReversals
        applicationFees += other.applicationFees
        feeRefunds += other.feeRefunds
        refunds += other.refunds
        disputes += other.disputes
        balanceTransactions += other.balanceTransactions
        payouts += other.payouts
        payoutTransactions += other.payoutTransactions
    }
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
