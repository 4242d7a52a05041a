/// The workbook's sheets, in the order a reader meets them: the answer first, then the two tables that grow with
/// the range (streamed while the rules run, so they come before the tables only known at the end), the other
/// details, then how the report was made. A table that fills a sheet continues on `<name> (2)` right after it.
enum WorkbookSheet: CaseIterable {
    /// Per currency the totals, the findings by kind and status, the check formulas, the per-day series and its
    /// charts. Added first (empty) and filled when everything else is written.
    case summary
    /// The roll-forward per currency and balance type and its proofs (``BalanceSheet``): added second (empty), filled
    /// at the end.
    case balance
    /// Streamed while the rules judge the range's charges.
    case platformFees
    /// The range's transfer groups, beside the platform fees (added empty when the platform fees end, filled at the
    /// end: a group's row is made when its first charge of the range is judged, and the rows are sorted then).
    case transferGroups
    /// The range's automatic payouts (added empty when their transactions begin, filled at the end: a range's
    /// payouts are few), and the balance transactions each paid out (streamed while the rules judge the payouts).
    case payouts
    case payoutTransactions
    case skippedTransfers
    case unreversedDisputes
    case exceptions
    case connectedAccounts
    /// Stripe's costs outside charges, by the day they name.
    case stripeCosts
    case ledger
    /// How the report was made; no CSV file.
    case run
}
