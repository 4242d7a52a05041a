/// What a run must still fetch by id or by a filtered list so that every object its range refers to is
/// in the history, as seen by this run (SPEC §3).
public struct FollowUpNeeds: Sendable, Equatable {
    /// Objects to retrieve by id, per kind.
    public var charges: [String] = []
    public var paymentIntents: [String] = []
    public var transfers: [String] = []
    public var applicationFees: [String] = []
    public var balanceTransactions: [String] = []
    /// Transfers whose stored reversals do not add up to `amount_reversed` (more than the 10 embedded).
    public var transferReversalLists: [String] = []
    /// Application fees whose stored refunds do not add up to `amount_refunded`.
    public var feeRefundLists: [String] = []
    /// Charges whose stored refunds do not add up to `amount_refunded` (refunds created after the range).
    public var chargeRefundLists: [String] = []
    /// Disputed charges with no dispute stored (disputes created after the range).
    public var chargeDisputeLists: [String] = []
    /// Automatic payouts of the range, completed by Stripe, whose balance transactions (`?payout=`) this run has not
    /// listed to the end.
    public var payoutTransactionLists: [String] = []
    /// Won disputes of the range whose recovered funds may have been paid back after it: list the transfers to
    /// `destination` created since `since` (the range's end) to find the repayment.
    public var repaymentSearches: [RepaymentSearch] = []

    public init() {}

    public var isEmpty: Bool { count == 0 }

    public var count: Int {
        charges.count + paymentIntents.count + transfers.count + applicationFees.count + balanceTransactions.count
            + transferReversalLists.count + feeRefundLists.count + chargeRefundLists.count + chargeDisputeLists.count
            + payoutTransactionLists.count + repaymentSearches.count
    }
}

/// Where to look for the transfer that pays a won dispute's recovered funds back to the connected account.
public struct RepaymentSearch: Sendable, Hashable {
    public var disputeID: String
    public var destination: String
    /// Unix seconds: the end of the range (the range's own transfers are listed anyway).
    public var since: Int64

    public init(disputeID: String, destination: String, since: Int64) {
        self.disputeID = disputeID
        self.destination = destination
        self.since = since
    }
}
