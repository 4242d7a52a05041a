/// One row of `platform_fees.csv`: a destination charge created in the range (docs/REPORTS.md). Amounts are minor
/// units of `currency`, except the application fee's (`applicationFeeAmount`, `applicationFeeRefunded`), which are
/// in `applicationFeeCurrency` (a cross-border fee settles in the connected account's currency), and `stripeFee`
/// and `platformNet`, which are in `settlementCurrency`.
public struct PlatformFeeRow: Sendable, Hashable, Codable {
    public var chargeID: String
    public var created: Int64
    public var currency: Currency
    public var amount: Int64
    public var amountRefunded: Int64
    public var destinationAccount: String?
    public var feeStyle: FeeStyle
    public var transferID: String?
    public var transferAmount: Int64?
    public var transferReversed: Int64?
    public var applicationFeeID: String?
    /// The application fee's own currency: the charge's, or the connected account's settlement currency for a
    /// cross-border fee.
    public var applicationFeeCurrency: Currency?
    /// In `applicationFeeCurrency`.
    public var applicationFeeAmount: Int64?
    /// In `applicationFeeCurrency`.
    public var applicationFeeRefunded: Int64?
    /// What the platform kept of the fee (`amount − amount_refunded`) in the charge's currency: as it is when the
    /// fee is in the charge's currency, converted at Stripe's rate when it is not (docs/RULES.md), 0 when it cannot be
    /// converted, `nil` without a fee. Not a column of its own: the DPF and the statements count it.
    public var applicationFeeKept: Int64?
    public var destinationPlatformFee: Int64
    public var stripeFee: Int64?
    public var settlementCurrency: Currency?
    /// `nil` when unknown: a balance transaction is missing, or they settle in more than one currency.
    public var platformNet: Int64?

    public init(
        chargeID: String, created: Int64, currency: Currency, amount: Int64, amountRefunded: Int64,
        destinationAccount: String?, feeStyle: FeeStyle, transferID: String?, transferAmount: Int64?,
        transferReversed: Int64?, applicationFeeID: String?, applicationFeeCurrency: Currency? = nil,
        applicationFeeAmount: Int64?, applicationFeeRefunded: Int64?, applicationFeeKept: Int64? = nil,
        destinationPlatformFee: Int64, stripeFee: Int64?, settlementCurrency: Currency?, platformNet: Int64?
    ) {
        self.chargeID = chargeID
        self.created = created
        self.currency = currency
        self.amount = amount
        self.amountRefunded = amountRefunded
        self.destinationAccount = destinationAccount
        self.feeStyle = feeStyle
        self.transferID = transferID
        self.transferAmount = transferAmount
        self.transferReversed = transferReversed
        self.applicationFeeID = applicationFeeID
        self.applicationFeeCurrency = applicationFeeCurrency
        self.applicationFeeAmount = applicationFeeAmount
        self.applicationFeeRefunded = applicationFeeRefunded
        self.applicationFeeKept = applicationFeeKept
        self.destinationPlatformFee = destinationPlatformFee
        self.stripeFee = stripeFee
        self.settlementCurrency = settlementCurrency
        self.platformNet = platformNet
    }
}

/// One row of `skipped_transfers.csv`: a charge whose intended transfer Stripe skipped.
public struct SkippedTransferRow: Sendable, Hashable, Codable {
    /// The finding kind of these rows, as the history and the Summary name it.
    public static let findingKind = "skipped_transfer"

    public var chargeID: String
    public var created: Int64
    public var currency: Currency
    public var amount: Int64
    public var intendedDestination: String
    public var paymentIntentID: String
    /// What the connected account should have received, in minor units of `currency`.
    public var amountOwed: Int64
    public var status: FindingStatus

    public init(
        chargeID: String, created: Int64, currency: Currency, amount: Int64, intendedDestination: String,
        paymentIntentID: String, amountOwed: Int64, status: FindingStatus = .new
    ) {
        self.chargeID = chargeID
        self.created = created
        self.currency = currency
        self.amount = amount
        self.intendedDestination = intendedDestination
        self.paymentIntentID = paymentIntentID
        self.amountOwed = amountOwed
        self.status = status
    }
}

/// One row of `unreversed_disputes.csv`: a dispute whose withdrawn funds the platform has not recovered.
public struct UnreversedDisputeRow: Sendable, Hashable, Codable {
    /// The finding kind of these rows, as the history and the Summary name it.
    public static let findingKind = "unreversed_dispute"

    public var disputeID: String
    public var chargeID: String
    public var created: Int64
    public var currency: Currency
    public var disputeAmount: Int64
    public var disputeStatus: DisputeStatus
    public var destinationAccount: String?
    public var transferID: String?
    public var recoverable: Int64
    public var recovered: Int64
    public var unrecovered: Int64
    public var status: FindingStatus

    public init(
        disputeID: String, chargeID: String, created: Int64, currency: Currency, disputeAmount: Int64,
        disputeStatus: DisputeStatus, destinationAccount: String?, transferID: String?, recoverable: Int64,
        recovered: Int64,
        unrecovered: Int64, status: FindingStatus = .new
    ) {
        self.disputeID = disputeID
        self.chargeID = chargeID
        self.created = created
        self.currency = currency
        self.disputeAmount = disputeAmount
        self.disputeStatus = disputeStatus
        self.destinationAccount = destinationAccount
        self.transferID = transferID
        self.recoverable = recoverable
        self.recovered = recovered
        self.unrecovered = unrecovered
        self.status = status
    }
}

/// The kinds of exception (docs/RULES.md), spelled as the reports write them.
public enum ExceptionKind: String, Sendable, Codable, CaseIterable {
    case applicationFeeMissing = "application_fee_missing"
    case applicationFeeAmountMismatch = "application_fee_amount_mismatch"
    case transferAmountMismatch = "transfer_amount_mismatch"
    case transferCurrencyMismatch = "transfer_currency_mismatch"
    case transferDestinationMismatch = "transfer_destination_mismatch"
    /// The charge names a transfer whose `source_transaction` is another charge.
    case transferOfAnotherCharge = "transfer_of_another_charge"
    case missingBalanceTransaction = "missing_balance_transaction"
    /// The connected account gave back less of a charge's refunds than its share (docs/RULES.md, "Refund recovery"):
    /// the platform bore the rest. It replaced `refund_without_transfer_reversal`, which judged the refund's link to
    /// a reversal instead of the money (migration v10 carries stored findings of the old kind over).
    case refundNotRecovered = "refund_not_recovered"
    case wonDisputeNotRepaid = "won_dispute_not_repaid"
    /// An automatic payout whose amount differs from the sum of the `net` of the balance transactions it paid out.
    case payoutMismatch = "payout_mismatch"
    /// An automatic payout that failed or was canceled: its funds came back to the balance instead of the bank.
    case payoutFailed = "payout_failed"
    /// A referenced object Stripe answered 404 for during extraction.
    case missingObject = "missing_object"
    /// A figure of the object does not fit in 64 bits (corrupt data): it was left out of the report's totals
    /// rather than wrapped around.
    case amountOverflow = "amount_overflow"
    /// A refund that failed after it reversed the transfer: the connected account was debited, the customer got
    /// nothing, and the money is back on the platform, owed to the account.
    case failedRefundNotRetransferred = "failed_refund_not_retransferred"
    /// An application fee in another currency than its charge's that cannot be converted into it (neither the
    /// charge nor its PaymentIntent names `application_fee_amount`, or the fee's amount is zero): it counts as zero
    /// in the destination platform fee.
    case feeCurrencyUnconvertible = "fee_currency_unconvertible"
    /// A range's starting balance differs from what the history's earlier snapshots of Stripe's balance imply at
    /// its start: a balance transaction the extraction never saw, or one Stripe changed (docs/RULES.md, "The books
    /// close").
    case balanceNotContinuous = "balance_not_continuous"
    /// A figure of Stripe's own Balance report differs from the roll-forward's.
    case stripeReportMismatch = "stripe_report_mismatch"
    /// A loss the platform covered (`connect_collection_transfer`) whose source does not name the connected account:
    /// counted with no account (docs/RULES.md, "The platform's other money").
    case collectionAccountUnknown = "collection_account_unknown"
}

/// An exception's expected or actual value: an amount in minor units of the row's currency, or text.
public enum ExceptionValue: Sendable, Hashable, Codable {
    case amount(Int64)
    case text(String)
}

/// One row of `exceptions.csv`.
public struct ExceptionRow: Sendable, Hashable, Codable {
    public var kind: ExceptionKind
    public var objectID: String
    public var relatedID: String?
    public var currency: Currency?
    public var expected: ExceptionValue?
    public var actual: ExceptionValue?
    /// One sentence a finance person can act on.
    public var message: String
    public var status: FindingStatus
    /// The object whose judging raised it (the charge, for a check of its fee or transfer); not a column.
    public var subject: FindingSubject?

    public init(
        kind: ExceptionKind, objectID: String, relatedID: String?, currency: Currency?, expected: ExceptionValue?,
        actual: ExceptionValue?, message: String, status: FindingStatus = .new, subject: FindingSubject? = nil
    ) {
        self.kind = kind
        self.objectID = objectID
        self.relatedID = relatedID
        self.currency = currency
        self.expected = expected
        self.actual = actual
        self.message = message
        self.status = status
        self.subject = subject
    }
}

/// One row of `ledger.csv`: the range's balance transactions of one currency, balance type and reporting category.
public struct LedgerRow: Sendable, Hashable, Codable {
    public var currency: Currency
    /// The balance the transactions affect (`payments`, `refund_and_dispute_prefunding`, `issuing`, …; see
    /// ``BalanceTransactionFacts/ledgerBalanceType``), as Stripe writes it.
    public var balanceType: BalanceType
    public var reportingCategory: ReportingCategory
    public var count: Int
    public var gross: Int64
    public var fee: Int64
    public var net: Int64

    public init(
        currency: Currency, balanceType: BalanceType = .payments, reportingCategory: ReportingCategory, count: Int,
        gross: Int64, fee: Int64, net: Int64
    ) {
        self.currency = currency
        self.balanceType = balanceType
        self.reportingCategory = reportingCategory
        self.count = count
        self.gross = gross
        self.fee = fee
        self.net = net
    }
}

/// One row of `summary.csv`: the range's totals in one currency.
public struct SummaryRow: Sendable, Hashable, Codable {
    public var currency: Currency
    public var destinationCharges: Int
    public var gross: Int64
    public var refunded: Int64
    public var destinationPlatformFee: Int64
    public var stripeFee: Int64
    public var skippedTransfers: Int
    public var amountOwed: Int64
    public var unreversedDisputes: Int
    public var unrecovered: Int64
    /// Charges of earlier days in the look-back window (docs/EXTRACTION.md, "Late outcomes") that are not final yet as
    /// of the run: still `pending`, so their outcome (succeeded, skipped, failed) will reach a later run.
    public var pendingCharges: Int
    /// The sum of those charges' `amount`, minor units of `currency`.
    public var pendingAmount: Int64
    /// How many transfer groups of the range (`transfer_groups.csv`) have their platform take in this currency.
    public var transferGroups: Int
    /// The sum of their `platform_take`, minor units of `currency`.
    public var platformTake: Int64
    /// What Stripe billed outside charges in the range (`stripe_costs.csv`'s `amount` in this currency).
    public var stripeCosts: Int64
    /// What the platform debited from connected accounts in the range (`connected_accounts.csv`'s `account_debits`).
    public var accountDebits: Int64
    /// What the platform paid Stripe to cover connected accounts' negative balances in the range
    /// (`connected_accounts.csv`'s `losses_covered`).
    public var lossesCovered: Int64

    public init(
        currency: Currency, destinationCharges: Int, gross: Int64, refunded: Int64, destinationPlatformFee: Int64,
        stripeFee: Int64, skippedTransfers: Int, amountOwed: Int64, unreversedDisputes: Int, unrecovered: Int64,
        pendingCharges: Int = 0, pendingAmount: Int64 = 0, transferGroups: Int = 0, platformTake: Int64 = 0,
        stripeCosts: Int64 = 0, accountDebits: Int64 = 0, lossesCovered: Int64 = 0
    ) {
        self.currency = currency
        self.destinationCharges = destinationCharges
        self.gross = gross
        self.refunded = refunded
        self.destinationPlatformFee = destinationPlatformFee
        self.stripeFee = stripeFee
        self.skippedTransfers = skippedTransfers
        self.amountOwed = amountOwed
        self.unreversedDisputes = unreversedDisputes
        self.unrecovered = unrecovered
        self.pendingCharges = pendingCharges
        self.pendingAmount = pendingAmount
        self.transferGroups = transferGroups
        self.platformTake = platformTake
        self.stripeCosts = stripeCosts
        self.accountDebits = accountDebits
        self.lossesCovered = lossesCovered
    }
}

/// Everything a range's reports contain, computed by the reconciler; writers only format it.
public struct ReconciliationReport: Sendable, Hashable, Codable {
    public var platformFees: [PlatformFeeRow]
    /// The range's transfer groups (`transfer_groups.csv`), sorted by creation time, then group.
    public var transferGroups: [TransferGroupRow]
    public var skippedTransfers: [SkippedTransferRow]
    public var unreversedDisputes: [UnreversedDisputeRow]
    public var exceptions: [ExceptionRow]
    public var ledger: [LedgerRow]
    public var summary: [SummaryRow]
    /// One statement per connected account and currency (`connected_accounts.csv`), sorted by account, then
    /// currency (see ``ConnectedAccountRow/reportOrder(_:_:)``).
    public var connectedAccounts: [ConnectedAccountRow]
    /// The range's automatic payouts (`payouts.csv`), sorted by creation time, then id.
    public var payouts: [PayoutRow]
    /// The balance transactions those payouts paid out (`payout_transactions.csv`), in the payouts' order, each
    /// payout's by creation time, then id.
    public var payoutTransactions: [PayoutTransactionRow]
    /// The Summary's per-day series (workbook only), sorted by currency, then day.
    public var dailyPlatformFees: [DailyPlatformFeeRow]
    /// The Summary's findings by kind and status (workbook only), sorted by kind. The reconciler counts every
    /// finding as new; the history's verdict (open, resolved) is counted in once it is known.
    public var findingCounts: [FindingCountRow]
    /// The roll-forward per currency and balance type (`balance.csv`), sorted by currency, then balance type.
    public var balance: [BalanceRow]
    /// Earlier ranges whose Stripe report, compared late by this run, differs from their roll-forward: their reports
    /// are out of date (not a file; the Run sheet and the run's record name them).
    public var staleReportRanges: [StaleReportRange] = []
    /// Stripe's costs outside charges created in the range (`stripe_costs.csv`), sorted by day, currency, then kind
    /// (``StripeCostRow/reportOrder(_:_:)``).
    public var stripeCosts: [StripeCostRow] = []

    public init(
        platformFees: [PlatformFeeRow] = [], transferGroups: [TransferGroupRow] = [],
        skippedTransfers: [SkippedTransferRow] = [],
        unreversedDisputes: [UnreversedDisputeRow] = [], exceptions: [ExceptionRow] = [], ledger: [LedgerRow] = [],
        summary: [SummaryRow] = [], connectedAccounts: [ConnectedAccountRow] = [], payouts: [PayoutRow] = [],
        payoutTransactions: [PayoutTransactionRow] = [], dailyPlatformFees: [DailyPlatformFeeRow] = [],
        findingCounts: [FindingCountRow] = [], balance: [BalanceRow] = []
    ) {
        self.balance = balance
        self.platformFees = platformFees
        self.transferGroups = transferGroups
        self.skippedTransfers = skippedTransfers
        self.unreversedDisputes = unreversedDisputes
        self.exceptions = exceptions
        self.ledger = ledger
        self.summary = summary
        self.connectedAccounts = connectedAccounts
        self.payouts = payouts
        self.payoutTransactions = payoutTransactions
        self.dailyPlatformFees = dailyPlatformFees
        self.findingCounts = findingCounts
    }
}
