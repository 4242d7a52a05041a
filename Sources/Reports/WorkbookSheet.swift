/// The workbook's sheets, in the order a reader meets them: the answer first, then the details, then how the
/// report was made. A table that fills a sheet continues on `<name> (2)` right after it.
enum WorkbookSheet: CaseIterable {
    /// Per currency the totals, the findings by kind and status, the check formulas, the per-day series and its
    /// charts. Added first (empty) and filled when everything else is written.
    case summary
    /// Streamed while the reconcile runs.
    case platformFees
    case skippedTransfers
    case unreversedDisputes
    case exceptions
    case connectedAccounts
    /// The range's automatic payouts, and the balance transactions each paid out.
    case payouts
    case payoutTransactions
    case ledger
    /// How the report was made; no CSV file.
    case run
}
