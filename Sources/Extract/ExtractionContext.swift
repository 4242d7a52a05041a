import ReconCore

/// What every worker of one extraction shares.
struct ExtractionContext: Sendable {
    var from: Int64
    var to: Int64
    var runID: Int64
    var now: Int64
    var chain: [Int64]
    var tally: Tally
    var lists: RangeLists
    var planner: FollowUpPlanner
    /// Stripe's balance and reports, read beside the lists.
    var books: BooksReads
    /// Whether the reversals the range made of earlier transfers are fetched (``RangeGaps/reversalTransactions``):
    /// only when the look-back is on and a completed run extracted a day of it, whose charges money moved by hand
    /// can be judged again for (docs/RULES.md); a fresh history has none.
    var followsMovesByHand = false
    /// The metadata keys that link an account debit to what it recovers (`reconcile.debit_link_keys`): a debit that
    /// names nothing under them has its transfer read (``RangeGaps/debitSourceTransfers``).
    var debitLinkKeys = ChargeFacts.defaultDebitLinkKeys
}
