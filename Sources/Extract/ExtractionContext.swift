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
}
