import Foundation
import ReconCore
import Sandbox

/// What docs/RULES.md and docs/REPORTS.md say each report must contain for a range of the world, computed from what the
/// generator meant to create (its tables), never by reading back the JSON it serves nor by calling the reconciler. Rows
/// are ReconCore's report rows where the ground truth fills every field as the reconciler does, and its own rows where
/// it states figures the reconciler may leave out (``PlatformFee``) or has no message for (``Exception``).
/// Amounts are minor units; rows are sorted by id; `created` values are Unix seconds.
public struct GroundTruth: Codable, Sendable, Equatable {
    /// The start of the range `[from, to)` in Unix seconds.
    public var from: Int64
    /// The end of the range (exclusive) in Unix seconds.
    public var to: Int64
    /// The moment the reconciliation runs, in Unix seconds.
    public var asOf: Int64
    /// How long (seconds) after its charge a missing transfer counts as skipped.
    public var skippedTransferGrace: Int64
    /// The destination charges created in the range (`platform_fees.csv`), sorted by charge id.
    public var platformFees: [PlatformFee]
    /// The transfer groups with a charge created in the range (`transfer_groups.csv`), sorted by creation time, then
    /// group.
    public var transferGroups: [TransferGroupRow] = []
    /// Every row's status is ``FindingStatus/new``, as a first run reports it.
    public var skippedTransfers: [SkippedTransferRow]
    /// Every row's status is ``FindingStatus/new``, as a first run reports it.
    public var unreversedDisputes: [UnreversedDisputeRow]
    /// The exceptions (`exceptions.csv`), sorted by object id, then kind.
    public var exceptions: [Exception]
    /// The range's balance transactions per currency, balance type and reporting category (`ledger.csv`), sorted by
    /// currency, balance type, then reporting category.
    public var ledger: [LedgerRow]
    /// Totals per currency (`summary.csv`), sorted by currency.
    public var summary: [SummaryRow]
    /// One statement per destination account and currency (`connected_accounts.csv`), sorted by account, then
    /// currency.
    public var connectedAccounts: [ConnectedAccountRow] = []
    /// The automatic payouts created in the range (`payouts.csv`), sorted by id.
    public var payouts: [PayoutRow] = []
    /// The balance transactions those payouts paid out (`payout_transactions.csv`), sorted by payout, then
    /// balance transaction id; `availableOn` is always set.
    public var payoutTransactions: [PayoutTransactionRow] = []
    /// The roll-forward of each balance over the range (`balance.csv`), sorted by currency, then balance type; see
    /// `GroundTruthBuilder.addBalance()`. Stripe's balance and the payouts in transit are as of the world's clock.
    public var balance: [BalanceRow] = []
    /// Stripe's costs outside charges created in the range (`stripe_costs.csv`), sorted by day, currency, then kind.
    public var stripeCosts: [StripeCostRow] = []

    /// One destination charge created in the range (`platform_fees.csv`). Unlike ReconCore's `PlatformFeeRow`,
    /// figures of a transfer or application fee the charge does not have are 0 rather than absent. Amounts are in
    /// `currency`, except the application fee's (in `applicationFeeCurrency`) and `stripeFee` and `platformNet` (in
    /// `settlementCurrency`).
    public struct PlatformFee: Codable, Sendable, Equatable {
        public var chargeID: String
        public var created: Int64
        public var currency: Currency
        public var amount: Int64
        public var amountRefunded: Int64
        public var destinationAccount: String?
        public var feeStyle: FeeStyle
        public var transferID: String?
        public var transferAmount: Int64
        public var transferReversed: Int64
        public var applicationFeeID: String?
        /// The fee's own currency: the charge's, or the destination account's for a cross-border fee; `nil` without
        /// a fee.
        public var applicationFeeCurrency: Currency?
        /// In `applicationFeeCurrency`.
        public var applicationFeeAmount: Int64
        /// In `applicationFeeCurrency`.
        public var applicationFeeRefunded: Int64
        public var destinationPlatformFee: Int64
        /// In `settlementCurrency`.
        public var stripeFee: Int64
        /// The charge's balance transaction's currency; `nil` when neither it nor any other balance transaction of
        /// the charge exists yet (a young charge of an asynchronous payment method).
        public var settlementCurrency: Currency?
        /// In `settlementCurrency`; `nil` when the charge's balance transactions are in more than one currency (a
        /// cross-border fee) or when it has none yet.
        public var platformNet: Int64?
    }

    /// One exception (`exceptions.csv`) without the reconciler's message and status. See
    /// ``SandboxWorld/groundTruth(for:asOf:skippedTransferGrace:)`` for what each kind names as object, related
    /// object, expected and actual.
    public struct Exception: Codable, Sendable, Equatable {
        public var kind: ExceptionKind
        public var objectID: String
        public var relatedID: String?
        public var currency: Currency
        public var expected: ExceptionValue?
        public var actual: ExceptionValue?
    }

    // MARK: JSON

    /// The ground truth as JSON: sorted keys, rows in their stable order, pretty-printed.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes ``jsonData()`` to `url` atomically.
    public func write(to url: URL) throws {
        try jsonData().write(to: url, options: .atomic)
    }

    /// Reads a ground truth written by ``write(to:)``.
    public static func read(from data: Data) throws -> GroundTruth {
        try JSONDecoder().decode(GroundTruth.self, from: data)
    }
}
