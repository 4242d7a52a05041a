/// What the history lacks of a range, as a chain of runs has seen it (docs/EXTRACTION.md): the objects the range refers
/// to that the chain has not seen, the nested lists it holds only part of, and the searches it has not made.
///
/// The history only answers what it holds; what to fetch, when and how is Extract's plan (`FollowUpPlanner`).
public struct RangeGaps: Sendable, Equatable {
    /// Objects referenced by id and not seen, per kind.
    public var charges: [String] = []
    public var paymentIntents: [String] = []
    public var transfers: [String] = []
    public var applicationFees: [String] = []
    /// Balance transactions of the range's charges and their parts (refunds, a failed refund's failure, transfer
    /// and reversals, fee and fee refunds, disputes) that were not seen: those of objects created in the range,
    /// which the range's balance transactions list brings as it pages, and those of objects created after it.
    public var balanceTransactionsOfRangeObjects: [String] = []
    public var balanceTransactionsOfLaterObjects: [String] = []
    /// Balance transactions of the late outcomes' charges (created before the range: fetched by id).
    public var balanceTransactionsOfLateOutcomes: [String] = []
    /// Transfers whose stored reversals do not add up to `amount_reversed` (more than the 10 embedded).
    public var transferReversalLists: [String] = []
    /// Balance transactions of the range (`transfer_refund`) whose transfer reversal the history lacks: a reversal
    /// made in the range of a transfer of an earlier day (money moved by hand, docs/EXTRACTION.md), which no list of
    /// the range holds and no endpoint of its own serves.
    public var reversalTransactions: [String] = []
    /// Balance transactions of the range (`connect_collection_transfer`: a negative balance of a connected account the
    /// platform covered) whose collected-for account the history has not read: only their source, expanded, names it.
    public var collectionTransactions: [String] = []
    /// Account debits of the range that name nothing themselves and whose transfer (their `source_transfer`, on the
    /// connected account) the history has not read: a platform that debits with a transfer labels that transfer
    /// (docs/RULES.md, "The platform's other money").
    public var debitSourceTransfers: [String] = []
    /// Application fees whose stored refunds do not add up to `amount_refunded`.
    public var feeRefundLists: [String] = []
    /// Charges whose stored refunds do not add up to `amount_refunded` (refunds created after the range).
    public var chargeRefundLists: [String] = []
    /// Disputed charges with no dispute stored (disputes created after the range).
    public var chargeDisputeLists: [String] = []
    /// Transfer groups (docs/RULES.md, "Separately transferred charges") of the range's charges and of the late
    /// outcomes' charges that are not destination charges, whose transfers made after the range this chain has not
    /// listed (`/v1/transfers?transfer_group=`, or the transfers created since the range's end). Destination charges
    /// never name one: Stripe labels their PaymentIntents `group_pi_…` itself.
    public var transferGroupLists: [String] = []
    /// Transfer groups of the older charges of the range's refunds and disputes (refund recovery and unreversed
    /// disputes read their transfers and reversals), not listed in this chain: all their transfers are needed, most
    /// made before the range.
    public var olderTransferGroupLists: [String] = []
    /// Automatic payouts of the range, completed by Stripe, whose balance transactions (`?payout=`) this chain has
    /// not listed to the end.
    public var payoutTransactionLists: [String] = []
    /// Won disputes of the range whose recovered funds were taken back from the connected account, with no
    /// repayment transfer seen and no search for one made.
    public var unrepaidDisputes: [UnrepaidDispute] = []

    public init() {}

    /// Nothing is lacking.
    public var isEmpty: Bool { self == RangeGaps() }
}

/// A won dispute whose recovered funds may have been paid back to the connected account after the range.
public struct UnrepaidDispute: Sendable, Hashable {
    public var disputeID: String
    /// The connected account the repayment would go to.
    public var destination: String

    public init(disputeID: String, destination: String) {
        self.disputeID = disputeID
        self.destination = destination
    }
}
