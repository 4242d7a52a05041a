import ReconCore

/// What one extraction's reads for the books found (docs/RULES.md, "The books close"), shared by its workers: Stripe's
/// balance and how far the balance transactions were listed to reach it, and Stripe's own reports.
actor BooksReads {
    /// A report compared: the range and currency it covers, and what Stripe said.
    struct Report: Sendable {
        var from: Int64
        var to: Int64
        var currency: Currency
        var comparison: StripeReportComparison
    }

    /// Whether the history already carries a snapshot back to the range (nothing after it is listed).
    let anchoredByHistory: Bool
    /// The balance transactions windows after the range that an interrupted attempt of the run finished.
    let finishedAfterRange: [Range<Int64>]
    /// Stripe's balance as read, with its JSON; `nil` until read, or when it could not be.
    private(set) var balance: (snapshot: BalanceSnapshot, json: String)?
    /// The balance transactions are listed up to here: the range's end, or the balance read's.
    private(set) var listEnd: Int64
    private(set) var reports: [Report] = []

    init(anchoredByHistory: Bool, finishedAfterRange: [Range<Int64>], to: Int64) {
        self.anchoredByHistory = anchoredByHistory
        self.finishedAfterRange = finishedAfterRange
        listEnd = to
    }

    func read(_ balance: (snapshot: BalanceSnapshot, json: String)?, listEnd: Int64) {
        self.balance = balance
        self.listEnd = listEnd
    }

    func add(_ reports: [Report]) { self.reports += reports }
}
