import ReconCore

/// The rules of docs/RULES.md: the facts of a range in, the rows of every report out.
///
/// Pure: no network, database, clock or logger; `input.asOf` is the only "now". All amounts are `Int64` minor
/// units; a sum never mixes currencies and never overflows silently (an overflow becomes an `amount_overflow`
/// exception and the figure is left out of the totals). Every finding comes out with status `new`: the history
/// marks the ones it has seen before as `open`.
public enum Reconciler {
    /// Reconciles `input`. Rows are sorted by creation time, then id; ledger by currency, balance type, then
    /// reporting category; summary by currency; connected accounts by account, then currency; payout transactions by
    /// payout (in the payouts' order), then creation time and id. The per-day series counts `days`
    /// (default: the UTC days of `[input.from, input.to)`).
    public static func reconcile(
        _ input: ReconciliationInput, days: ReportingDays? = nil,
        debitLinkKeys: [String] = ChargeFacts.defaultDebitLinkKeys
    ) -> ReconciliationReport {
        var session = ReconciliationSession(
            asOf: input.asOf, skippedTransferGrace: input.skippedTransferGrace, days: days,
            debitLinkKeys: debitLinkKeys)
        session.add(input)
        return session.report()
    }
}

/// The rules applied to a range given in parts (see ``JudgedObjects``): the report is the same as
/// ``Reconciler/reconcile(_:)`` of the whole range, but only one part's facts are held at a time.
///
/// ```swift
/// var session = ReconciliationSession(asOf: now, skippedTransferGrace: 3600, days: ReportingDays(range))
/// for part in parts {
///     session.add(part)
///     try writer.append(platformFees: session.takePlatformFees())  // in order when parts come in charge order
///     try writer.append(payoutTransactions: session.takePayoutTransactions())  // and in payout order
/// }
/// let rest = session.report()
/// ```
public struct ReconciliationSession: Sendable {
    private var builder: ReportBuilder

    /// A session whose per-day series counts `days`; `nil`: the UTC days of the first part's range. An account debit
    /// names what it recovers by the values of its metadata under `debitLinkKeys` (`reconcile.debit_link_keys`) and by
    /// its `transfer_group`.
    public init(
        asOf: Int64, skippedTransferGrace: Int64, days: ReportingDays? = nil,
        debitLinkKeys: [String] = ChargeFacts.defaultDebitLinkKeys
    ) {
        builder = ReportBuilder(asOf: asOf, grace: skippedTransferGrace, debitLinkKeys: debitLinkKeys)
        builder.days = days
    }

    /// Applies every rule to the objects `part` judges (all of its objects created in the range when
    /// `part.judged` is `nil`).
    public mutating func add(_ part: ReconciliationInput) {
        if builder.days == nil { builder.days = ReportingDays.utc(from: part.from, to: part.to) }
        builder.index = FactIndex(part)
        builder.debits = AccountDebitLinks(charges: builder.index.charges, keys: builder.debitLinkKeys)
        builder.destinationCharges()
        builder.transferGroups()
        builder.accountDebits()
        builder.chargesInRange()
        builder.transfersInRange()
        builder.applicationFeesInRange()
        builder.refundRecovery()
        builder.failedRefunds()
        builder.disputes()
        builder.payouts()
        if part.judged?.missingObjects ?? true { builder.missingObjects(part.missingObjects) }
        builder.ledger(part.ledgerTotals)
        builder.stripeCosts(part.stripeCostTransactions)
        builder.lossesCovered(part.collectionTransfers)
        builder.pendingCharges(part.pendingCharges)
        builder.balance(part.balance, from: part.from)
        builder.lateBalanceComparisons(part.lateBalanceComparisons)
        builder.index = FactIndex.empty
        builder.debits = .empty
    }

    /// The `platform_fees` rows made since the last call, sorted by creation time, then charge id. When parts
    /// judge their charges in that order, the rows of all calls together are sorted too.
    public mutating func takePlatformFees() -> [PlatformFeeRow] {
        defer { builder.platformFees.removeAll() }
        return ReportBuilder.sorted(builder.platformFees)
    }

    /// The `payout_transactions` rows made since the last call: the payouts by creation time, then id; each one's
    /// transactions by creation time, then id. When parts hold the payouts in that order (a payout that continues
    /// over several parts, in its transactions' order), the rows of all calls together are the report's.
    public mutating func takePayoutTransactions() -> [PayoutTransactionRow] {
        defer { builder.payoutTransactionRows.removeAll() }
        return builder.payoutTransactionRows
    }

    /// Every row made so far (`platformFees` and `payoutTransactions`: those not yet taken), sorted.
    public func report() -> ReconciliationReport { builder.report() }
}

/// Accumulates the report's rows; each rule lives in an extension named after it.
struct ReportBuilder {
    /// The facts of the part being reconciled.
    var index = FactIndex.empty
    let asOf: Int64
    let grace: Int64
    /// The metadata keys whose values name what an account debit recovers.
    let debitLinkKeys: [String]
    /// The part's account debits by what they name.
    var debits = AccountDebitLinks.empty

    var platformFees: [PlatformFeeRow] = []
    var transferGroupRows: [TransferGroupRow] = []
    var skippedTransfers: [SkippedTransferRow] = []
    var unreversedDisputes: [UnreversedDisputeRow] = []
    var ledgerGroups: [LedgerKey: LedgerRow] = [:]
    /// The roll-forward's rows (``balance(_:from:)``), in currency and balance type order.
    var balanceRows: [BalanceRow] = []
    /// Earlier ranges whose late-compared Stripe report differs (``lateBalanceComparisons(_:)``).
    var staleReportRanges: [StaleReportRange] = []
    var summary: [Currency: SummaryRow] = [:]
    /// The connected accounts' statements.
    var accounts: [AccountKey: ConnectedAccountRow] = [:]
    /// The payouts' rows and the rows of the balance transactions they paid out.
    var payoutRows: [PayoutRow] = []
    /// In the order they are made (see ``ReconciliationSession/takePayoutTransactions()``).
    var payoutTransactionRows: [PayoutTransactionRow] = []
    /// Payouts whose transactions continue in later parts, with what the parts so far held of them.
    var payoutCarry: [String: PayoutCarry] = [:]
    /// The days of the per-day series, and its points.
    var days: ReportingDays?
    var daily: [DayKey: (count: Int, fee: Int64)] = [:]
    /// `stripe_costs.csv`'s rows, and the balance transactions counted in them (a part's and the ledger's may meet).
    var stripeCostRows: [StripeCostKey: StripeCostRow] = [:]
    var countedStripeCosts: Set<String> = []
    /// The collection transfers counted in `losses_covered` (a part's and a merged input's may meet).
    var countedCollections: Set<String> = []
    /// Exceptions with the creation time of the object they name (for the row order) and their identity, so an
    /// object reached twice (a transfer shared by two charges in corrupt data) is reported once.
    private var exceptions: [(created: Int64, row: ExceptionRow)] = []
    private var exceptionKeys: Set<String> = []

    init(asOf: Int64, grace: Int64, debitLinkKeys: [String] = ChargeFacts.defaultDebitLinkKeys) {
        self.asOf = asOf
        self.grace = grace
        self.debitLinkKeys = debitLinkKeys
    }

    /// Whether a charge is still inside the grace period of asynchronous capture (its transfer, application fee
    /// and balance transaction may not be attached yet).
    func isYoung(_ charge: ChargeFacts) -> Bool { isYoung(created: charge.created) }

    /// Whether an object created at `created` is younger than the grace period at `asOf`.
    func isYoung(created: Int64) -> Bool {
        guard let age = Checked.subtract(asOf, created) else { return false }
        return age < grace
    }

    // MARK: Exceptions

    /// Records an exception about `objectID`, raised by judging the object `subject` (default: `objectID` itself)
    /// created at `created`. A `missing_object` is about no judged object.
    mutating func exception(
        _ kind: ExceptionKind, _ objectID: String, related: String?, currency: Currency?, created: Int64,
        subject: String? = nil, expected: ExceptionValue? = nil, actual: ExceptionValue? = nil, message: String
    ) {
        let key = "\(kind.rawValue)\u{0}\(objectID)\u{0}\(related ?? "")"
        guard exceptionKeys.insert(key).inserted else { return }
        let judged = kind == .missingObject ? nil : FindingSubject(id: subject ?? objectID, created: created)
        exceptions.append(
            (
                created,
                ExceptionRow(
                    kind: kind, objectID: objectID, relatedID: related, currency: currency, expected: expected,
                    actual: actual, message: message, status: .new, subject: judged)
            ))
    }

    /// Records that a figure of `objectID` did not fit in 64 bits and was left out.
    mutating func overflow(_ objectID: String, currency: Currency?, created: Int64, what: String) {
        exception(
            .amountOverflow, objectID, related: nil, currency: currency, created: created,
            message: "The \(what) of \(objectID) does not fit in 64 bits and was left out of this report's figures; "
                + "check the object in the Stripe Dashboard for corrupt data.")
    }

    // MARK: Summary

    /// Adds `value` to one total of `currency`'s summary row; an overflow leaves the total unchanged and says so.
    mutating func addToSummary(
        _ currency: Currency, _ field: WritableKeyPath<SummaryRow, Int64>, _ value: Int64, objectID: String,
        created: Int64, what: String
    ) {
        var row = summaryRow(currency)
        guard let total = Checked.add(row[keyPath: field], value) else {
            overflow(objectID, currency: currency, created: created, what: "\(what) total in \(currency)")
            return
        }
        row[keyPath: field] = total
        summary[currency] = row
    }

    /// The charges of the look-back window that are still pending (docs/REPORTS.md, `pending_charges` and
    /// `pending_amount`), added to their currency's summary row.
    mutating func pendingCharges(_ totals: [PendingChargeTotal]) {
        for total in totals {
            var row = summaryRow(total.currency)
            guard let amount = Checked.add(row.pendingAmount, total.amount) else {
                overflow(
                    "pending charges", currency: total.currency, created: .max,
                    what: "pending amount total in \(total.currency)")
                continue
            }
            row.pendingCharges += total.count
            row.pendingAmount = amount
            summary[total.currency] = row
        }
    }

    mutating func countInSummary(_ currency: Currency, _ field: WritableKeyPath<SummaryRow, Int>) {
        var row = summaryRow(currency)
        row[keyPath: field] += 1
        summary[currency] = row
    }

    private func summaryRow(_ currency: Currency) -> SummaryRow {
        summary[currency]
            ?? SummaryRow(
                currency: currency, destinationCharges: 0, gross: 0, refunded: 0, destinationPlatformFee: 0,
                stripeFee: 0, skippedTransfers: 0, amountOwed: 0, unreversedDisputes: 0, unrecovered: 0)
    }

    // MARK: Result

    static func sorted(_ rows: [PlatformFeeRow]) -> [PlatformFeeRow] {
        rows.sorted { ($0.created, $0.chargeID) < ($1.created, $1.chargeID) }
    }

    func sortedPayouts() -> [PayoutRow] {
        payoutRows.sorted { ($0.created, $0.payoutID) < ($1.created, $1.payoutID) }
    }

    func sortedPayoutTransactions() -> [PayoutTransactionRow] {
        var rank: [String: Int] = [:]
        for (position, payout) in sortedPayouts().enumerated() { rank[payout.payoutID] = position }
        return payoutTransactionRows.sorted {
            (rank[$0.payoutID] ?? .max, $0.created, $0.balanceTransactionID)
                < (rank[$1.payoutID] ?? .max, $1.created, $1.balanceTransactionID)
        }
    }

    func report() -> ReconciliationReport {
        var report = ReconciliationReport(
            platformFees: Self.sorted(platformFees),
            transferGroups: transferGroupRows.sorted {
                ($0.created, $0.transferGroup) < ($1.created, $1.transferGroup)
            },
            skippedTransfers: skippedTransfers.sorted { ($0.created, $0.chargeID) < ($1.created, $1.chargeID) },
            unreversedDisputes: unreversedDisputes.sorted {
                ($0.created, $0.disputeID) < ($1.created, $1.disputeID)
            },
            exceptions: exceptions.sorted {
                ($0.created, $0.row.objectID, $0.row.kind.rawValue, $0.row.relatedID ?? "")
                    < ($1.created, $1.row.objectID, $1.row.kind.rawValue, $1.row.relatedID ?? "")
            }.map(\.row),
            ledger: ledgerGroups.values.sorted {
                ($0.currency.rawValue, $0.balanceType.rawValue, $0.reportingCategory.rawValue)
                    < ($1.currency.rawValue, $1.balanceType.rawValue, $1.reportingCategory.rawValue)
            },
            summary: summary.values.sorted { $0.currency < $1.currency },
            connectedAccounts: connectedAccountRows(), payouts: sortedPayouts(),
            payoutTransactions: sortedPayoutTransactions(), dailyPlatformFees: dailyPlatformFeeRows())
        report.balance = balanceRows
        report.staleReportRanges = staleReportRanges
        report.stripeCosts = stripeCostRows.values.sorted(by: StripeCostRow.reportOrder)
        report.findingCounts = FindingCounts.rows(of: report)
        return report
    }
}

/// `8.77 usd` for messages.
func describe(_ minorUnits: Int64, _ currency: Currency) -> String {
    Money(minorUnits: minorUnits, currency: currency).description
}
