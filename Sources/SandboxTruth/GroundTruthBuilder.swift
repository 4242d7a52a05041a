import Foundation
import ReconCore
import Sandbox

extension SandboxWorld {
    /// What each report must contain for `range`, reconciled at `asOf`, following docs/RULES.md and docs/REPORTS.md.
    ///
    /// The objects' state is the world's as served, at its ``SandboxWorld/end`` (refunds, reversals, disputes and
    /// refund failures created after the range count, as the job sees them when it fetches the objects; for a world
    /// served as of an earlier moment, the state as of that moment). An object `x` is young when
    /// `asOf − x.created < skippedTransferGrace`.
    ///
    /// Each currency's summary row also counts the charges of the look-back window, `[from − lookbackDays days,
    /// from)`, that are still `pending` as served (all charges, destination or not): `pendingCharges` and
    /// `pendingAmount`, the sum of their `amount` in the charge's currency. A currency with only such charges has a
    /// row of zeros with these two set.
    ///
    /// Figures of a succeeded destination charge `c` created in the range, with transfer `t` and application fee `f`
    /// (a missing one counts 0):
    /// - DPF `= (amount_captured − amount_refunded) − (t.amount − t.amount_reversed) + feeKept`, where `feeKept`, in
    ///   the charge's currency, is `f.amount − f.amount_refunded` when `f.currency == c.currency`; otherwise, with `A`
    ///   the PaymentIntent's `application_fee_amount` (else the charge's), when `A` exists and `f.amount > 0`:
    ///   `round_half_up(A × (f.amount − f.amount_refunded) / f.amount)`, that is
    ///   `(2·A·kept + f.amount) / (2·f.amount)` in integers; else 0 (and a `fee_currency_unconvertible`).
    ///   `amount_refunded` does not count failed refunds (Stripe's own figure), while their reversals stay in
    ///   `t.amount_reversed`. The fee's amounts are in its own currency (`applicationFeeCurrency`).
    /// - `fee_style` is the charge's: `application_fee` whenever a fee exists, even one without an
    ///   `application_fee_amount`.
    /// - Platform net: the sum of `net` over the balance transactions of the charge, its refunds (and their
    ///   `refund_failure` ones), `t` and its reversals, `f` and its refunds, and the charge's disputes; `nil` when they
    ///   are in more than one currency or there are none. The settlement currency is the charge's balance
    ///   transaction's (its platform settlement currency while it has none).
    /// - Connected-account statements count `feeKept` as `application_fees`.
    /// - Partial and multiple captures (docs/RULES.md): a charge counts when it succeeded with `amount_captured > 0`,
    /// whatever   `captured` says (a multicapture in progress); an authorisation that expired uncaptured has no row, no
    ///   skipped transfer and no finding. `amount_refunded` (in the DPF, the row, the summary's and statements'
    ///   `refunded`, and refund recovery) leaves out the refunds of the uncaptured remainder. The amount owed of a
    ///   skipped transfer and the expected application fee and transfer are capped at `amount_captured`. `gross` stays
    ///   the charge's `amount`, as the row's `amount`.
    ///
    /// Exceptions name:
    /// - `application_fee_missing`: the charge, unless it is young; expected `application_fee_amount`, actual 0.
    /// - `application_fee_amount_mismatch`: the fee, related the charge; expected `application_fee_amount`,
    ///   actual the fee's amount; never for a fee in another currency than the charge's.
    /// - `fee_currency_unconvertible`: a fee in another currency than its charge's with no `application_fee_amount`
    ///   to convert it with (or an amount of 0), related the charge, in the fee's currency; expected none, actual
    ///   the fee's kept amount `f.amount − f.amount_refunded`.
    /// - `transfer_amount_mismatch`: the transfer, related the charge; expected `transfer_data.amount` or the charge
    ///   amount, actual the transfer amount. `transfer_currency_mismatch`: expected and actual currencies.
    ///   `transfer_destination_mismatch`: expected and actual account ids. All three for destination charges
    ///   created in the range.
    /// - No `transfer_source_not_destination_charge`: a transfer whose source is not a destination charge is a
    ///   separately transferred charge's (below).
    /// - `missing_balance_transaction`: a charge, transfer or application fee created in the range, while Stripe
    ///   should have made it (asynchronous parts): a charge that is not young; a transfer or fee that is not young and
    ///   whose source or originating charge is not young.
    /// - `refund_not_recovered`: a destination charge with a transfer and a refund created in the range that did not
    ///   fail, whose transfer's reversals gave back less than the account's share of its refunds; related the
    ///   transfer; expected the share, actual what was given back.
    ///   For a transfer group (below) with such a refund: about the group key, no related object, in its transfers'
    ///   currency, the sums over all its charges and transfers; not judged when its charges or its transfers are in
    ///   more than one currency.
    /// - `failed_refund_not_retransferred`: a refund created in the range that failed after it reversed the transfer,
    ///   related the reversal, in the charge's currency; expected the reversal's amount, actual 0.
    /// - `won_dispute_not_repaid`: a won dispute created in the range, related its transfer; expected the
    ///   recovered amount, actual 0.
    /// - `payout_mismatch`: a payout created in the range whose reconciliation is `completed` and whose paid-out
    ///   transactions' nets do not add up to its amount, related its own balance transaction; expected the sum of the
    ///   nets, actual the amount.
    /// - `payout_failed`: a payout created in the range that failed, related the `payout_failure` balance
    ///   transaction that returned its funds; expected its amount, actual 0 (nothing reached the bank).
    ///
    /// Separately transferred charges (docs/RULES.md, "transfer groups"): a transfer's group is its `transfer_group`,
    /// else the id of the charge it names as `source_transaction`; a charge's, when it counts and is not a destination
    /// charge, its own `transfer_group`, else the group of the earliest transfer naming it as `source_transaction`.
    /// `transferGroups` has one row per group with a charge created in the range, over all its charges and transfers
    /// as served: `charged = Σ (amount_captured − customer refunds)`, `refunded`, `transferred = Σ amount`,
    /// `reversed = Σ amount_reversed`, `platform_take = charged − (transferred − reversed)`, in the one currency of
    /// its charges and transfers; else from the balance transactions when they all exist and share one currency
    /// (`charged` = the charges' plus all their refunds' and refund failures' `amount`, `refunded` = minus the
    /// customer refunds' that did not fail, `transferred` = minus the transfers', `reversed` = the reversals'); else
    /// `nil`. `stripe_fee` and `settlement_currency` from the charges' balance transactions (`nil` while one has none
    /// or they differ); `platform_net` the nets of the charges', refunds' (failures too), transfers', reversals' and
    /// disputes' balance transactions (`nil` when a charge, refund, transfer or reversal has none, or they differ in
    /// currency). The Summary counts each row with a currency (`transfer_groups`, `platform_take`); each group's
    /// transfers add to `transferred` and `reversed` of their account's statement in their currency. A dispute on a
    /// group's charge is judged with the group's transfers standing for `t` (recoverable net of what they gave back
    /// for refunds); its row names the account when they go to one, the transfer when there is one.
    ///
    /// Account debits (worlds made with `otherMoney`): a debit naming a charge gives back its refund share when made
    /// from its first refund until its first dispute; one naming a dispute recovers it; one naming nothing recovers
    /// nothing. Each counts in its account's `accountDebits`.
    ///
    /// Payouts carry their `reconciliation_status`; one that is not `completed` has no counts, sums nor difference
    /// and no `payout_transactions` rows. The ledger groups the range's balance transactions by currency,
    /// `balance_type` and reporting category.
    public func groundTruth(
        for range: ReportingRange, asOf: Date, skippedTransferGrace: TimeInterval, lookbackDays: Int = 14
    ) -> GroundTruth {
        var builder = GroundTruthBuilder(
            storage: storage, from: range.unixSeconds.from, to: range.unixSeconds.to,
            asOf: Int64(asOf.timeIntervalSince1970.rounded(.down)), grace: Int64(skippedTransferGrace.rounded(.up)),
            lookbackDays: lookbackDays, days: ReportingDays(range))
        return builder.build()
    }
}

/// Computes a range's ground truth from the world's tables, one kind of object at a time.
struct GroundTruthBuilder {
    let storage: WorldStorage
    let from: Int64
    let to: Int64
    let asOf: Int64
    let grace: Int64
    let lookbackDays: Int
    /// The range's local days, for the costs whose description names no day.
    let days: ReportingDays

    var truth: GroundTruth
    /// Summary rows by currency, filled as the rows are found.
    private var summary: [Currency: SummaryRow] = [:]
    /// Connected-account rows by `account/currency`, filled as the rows are found.
    private var accounts: [String: ConnectedAccountRow] = [:]
    /// The world's transfer groups, collected before the rows.
    var groups = TransferGroupIndex()

    init(
        storage: WorldStorage, from: Int64, to: Int64, asOf: Int64, grace: Int64, lookbackDays: Int,
        days: ReportingDays
    ) {
        self.storage = storage
        self.from = from
        self.to = to
        self.asOf = asOf
        self.grace = grace
        self.lookbackDays = lookbackDays
        self.days = days
        truth = GroundTruth(
            from: from, to: to, asOf: asOf, skippedTransferGrace: grace, platformFees: [], skippedTransfers: [],
            unreversedDisputes: [], exceptions: [], ledger: [], summary: [])
    }

    func id(_ kind: StripeIDKind, _ index: Int) -> String { storage.ids.id(kind, index) }
    func id(_ kind: StripeIDKind, _ index: Int32) -> String? { index >= 0 ? storage.ids.id(kind, Int(index)) : nil }

    /// Indexes of a created-sorted table inside `[from, to)`.
    func inRange(_ created: [Int64]) -> Range<Int> { inRange(created, from: from, to: to) }

    /// Indexes of a created-sorted table inside `[from, to)`.
    func inRange(_ created: [Int64], from: Int64, to: Int64) -> Range<Int> {
        func first(_ bound: Int64) -> Int {
            var low = 0
            var high = created.count
            while low < high {
                let mid = (low + high) / 2
                if created[mid] >= bound { high = mid } else { low = mid + 1 }
            }
            return low
        }
        let lower = first(from)
        return lower..<max(lower, first(to))
    }

    func net(_ bt: Int32) -> Int64 {
        guard bt >= 0 else { return 0 }
        return storage.balanceTransactions.amount[Int(bt)] - storage.balanceTransactions.fee[Int(bt)]
    }

    /// Whether an object created at `created` is younger than the grace period at `asOf`.
    func young(_ created: Int64) -> Bool { asOf - created < grace }

    mutating func build() -> GroundTruth {
        groups = collectTransferGroups()
        for c in inRange(storage.charges.created) { addCharge(c) }
        addTransferGroups()
        addPendingCharges()
        addTransfersAndFees()
        addRefunds()
        addDisputes()
        addPayouts()
        addLedger()
        addStripeCosts()
        addLossesCovered()
        addAccountDebits()
        addBalance()
        sortRows()
        return truth
    }

    // MARK: Totals and exceptions

    mutating func add(_ currency: Currency, _ change: (inout SummaryRow) -> Void) {
        change(&summary[currency, default: Self.emptySummary(currency)])
    }

    mutating func add(account: String?, _ currency: Currency, _ change: (inout ConnectedAccountRow) -> Void) {
        let key = (account ?? "") + "/" + currency.rawValue
        change(&accounts[key, default: ConnectedAccountRow(destinationAccount: account, currency: currency)])
    }

    mutating func exception(
        _ kind: ExceptionKind, _ object: String, _ related: String?, _ currency: Currency,
        _ expected: ExceptionValue?, _ actual: ExceptionValue?
    ) {
        truth.exceptions.append(
            GroundTruth.Exception(
                kind: kind, objectID: object, relatedID: related, currency: currency, expected: expected,
                actual: actual))
    }

    private static func emptySummary(_ currency: Currency) -> SummaryRow {
        SummaryRow(
            currency: currency, destinationCharges: 0, gross: 0, refunded: 0, destinationPlatformFee: 0, stripeFee: 0,
            skippedTransfers: 0, amountOwed: 0, unreversedDisputes: 0, unrecovered: 0)
    }

    // MARK: Other objects created in the range

    /// The charges of the look-back window before the range that are still `pending` as served.
    private mutating func addPendingCharges() {
        let charges = storage.charges
        let lookback = Int64(max(lookbackDays, 0)) * 86_400
        for c in inRange(charges.created, from: from - lookback, to: from) where charges.status[c] == .pending {
            let amount = charges.amount[c]
            add(charges.currency[c].currency) {
                $0.pendingCharges += 1
                $0.pendingAmount += amount
            }
        }
    }

    private mutating func addTransfersAndFees() {
        let charges = storage.charges
        let transfers = storage.transfers
        for t in inRange(transfers.created) {
            let currency = transfers.currency[t].currency
            let source = Int(transfers.sourceCharge[t])
            if transfers.balanceTransaction[t] < 0, !young(transfers.created[t]),
                source < 0 || !young(charges.created[source])
            {
                exception(
                    .missingBalanceTransaction, id(.transfer, t), id(.charge, transfers.sourceCharge[t]), currency, nil,
                    nil)
            }
        }
        for f in inRange(storage.fees.created) where storage.fees.balanceTransaction[f] < 0 {
            let charge = Int(storage.fees.charge[f])
            guard !young(storage.fees.created[f]), !young(charges.created[charge]) else { continue }
            exception(
                .missingBalanceTransaction, id(.applicationFee, f), id(.charge, charge),
                charges.currency[charge].currency, nil, nil)
        }

    }

    private mutating func addRefunds() {
        let charges = storage.charges
        let refunds = storage.refunds
        for r in inRange(refunds.created) {
            let charge = Int(refunds.charge[r])
            let currency = charges.currency[charge].currency
            let reversal = refunds.transferReversal[r]
            if refunds.failed(r) {
                guard reversal >= 0 else { continue }
                exception(
                    .failedRefundNotRetransferred, id(.refund, r), id(.transferReversal, Int(reversal)), currency,
                    .amount(storage.reversals.amount[Int(reversal)]), .amount(0))
            }
        }
        addRefundRecovery()
        addGroupRefundRecovery()
    }

    /// docs/RULES.md "Refund recovery", written from the world's tables: per destination charge with a transfer and a
    /// refund created in the range that did not fail, the account's share `round_half_up(refunded × transferred /
    /// captured)` of all its refunds that did not fail, against the reversals of its transfer linked to one of those
    /// refunds, or unlinked and made from its first such refund until its first dispute that withdrew funds. A
    /// shortfall larger than one minor unit per refund (Stripe rounds each refund's reversal) is the exception.
    private mutating func addRefundRecovery() {
        let charges = storage.charges
        let refunds = storage.refunds
        let reversals = storage.reversals
        let disputes = storage.disputes
        var charged: [Int] = []
        var seen = Set<Int>()
        for r in inRange(refunds.created) where !refunds.failed(r) && !refunds.uncapturedRemainder[r] {
            let charge = Int(refunds.charge[r])
            if seen.insert(charge).inserted { charged.append(charge) }
        }
        for charge in charged {
            let transfer = Int(charges.transfer[charge])
            guard charges.isDestinationCharge(charge), transfer >= 0 else { continue }
            let moved = charges.refunds.items(of: charge).map(Int.init)
                .filter { !refunds.failed($0) && !refunds.uncapturedRemainder[$0] }
            guard let first = moved.map({ refunds.created[$0] }).min() else { continue }
            let refunded = moved.reduce(Int64(0)) { $0 + refunds.amount[$1] }
            let captured = charges.amountCaptured[charge]
            guard captured > 0 else { continue }
            let product = refunded * storage.transfers.amount[transfer]
            let share = (product + captured / 2) / captured
            let firstDispute = charges.disputes.items(of: charge).map(Int.init)
                .filter { disputes.status[$0].withdrawsFunds }
                .map { disputes.created[$0] }.min()
            let movedSet = Set(moved)
            var given: Int64 = 0
            for v in storage.transfers.reversals.items(of: transfer).map(Int.init) {
                let source = Int(reversals.sourceRefund[v])
                let counts =
                    source >= 0
                    ? movedSet.contains(source)
                    : reversals.created[v] >= first && reversals.created[v] < (firstDispute ?? .max)
                if counts { given += reversals.amount[v] }
            }
            // An account debit naming the charge (itself or through its transfer), made from its first refund until its
            // first dispute, gives back too
            for (created, amount, link) in debitsGivingBack(charge) where created >= first {
                switch link {
                case .chargeRefund, .chargeRefundByTransfer: if created < (firstDispute ?? .max) { given += amount }
                case .unlinked, .dispute: break
                }
            }
            guard share - given > Int64(moved.count) else { continue }
            exception(
                .refundNotRecovered, id(.charge, charge), id(.transfer, transfer), charges.currency[charge].currency,
                .amount(share), .amount(given))
        }
    }

    private mutating func addDisputes() {
        let charges = storage.charges
        let transfers = storage.transfers
        let disputes = storage.disputes
        for d in inRange(disputes.created) {
            let charge = Int(disputes.charge[d])
            let currency = charges.currency[charge].currency
            let status = disputes.status[d]
            let transfer = Int(charges.transfer[charge])
            guard charges.isDestinationCharge(charge) else {
                if let key = groups.groupOfCharge[charge] { addGroupDispute(d, charge: charge, key: key) }
                continue
            }
            if status == .won, transfer >= 0 {
                let recovered = transfers.reversals.items(of: transfer)
                    .filter { storage.reversals.dispute[Int($0)] == Int32(d) }
                    .reduce(Int64(0)) { $0 + storage.reversals.amount[Int($1)] }
                if recovered > 0, disputes.repayment[d] < 0 {
                    exception(
                        .wonDisputeNotRepaid, id(.dispute, d), id(.transfer, transfer), currency, .amount(recovered),
                        .amount(0))
                }
            }
            guard status.fundsStillWithdrawn else { continue }
            // A charge made on behalf of its account: its dispute is recovered once lost, not while it is decided
            if charges.has(ChargeTable.onBehalfOf, charge), status == .needsResponse || status == .underReview {
                continue
            }
            var recoverable: Int64 = 0
            var recovered: Int64 = 0
            if transfer >= 0 {
                var refundLinked: Int64 = 0
                for reversal in transfers.reversals.items(of: transfer).map(Int.init) {
                    if storage.reversals.sourceRefund[reversal] >= 0 {
                        refundLinked += storage.reversals.amount[reversal]
                    } else if storage.reversals.created[reversal] >= disputes.created[d] {
                        recovered += storage.reversals.amount[reversal]
                    }
                }
                recoverable = min(disputes.amount[d], transfers.amount[transfer] - refundLinked)
                // An account debit naming the dispute (the charge's first) recovers it
                if charges.disputes.items(of: charge).first == Int32(d) {
                    for (_, amount, link) in debitsGivingBack(charge) {
                        if case .dispute = link { recovered += amount }
                    }
                }
            }
            let unrecovered = recoverable - recovered
            guard unrecovered > 0 else { continue }
            truth.unreversedDisputes.append(
                UnreversedDisputeRow(
                    disputeID: id(.dispute, d), chargeID: id(.charge, charge), created: disputes.created[d],
                    currency: currency, disputeAmount: disputes.amount[d],
                    disputeStatus: DisputeStatus(rawValue: status.name),
                    destinationAccount: transfer >= 0 ? id(.account, Int(transfers.destination[transfer])) : nil,
                    transferID: id(.transfer, charges.transfer[charge]), recoverable: recoverable,
                    recovered: recovered, unrecovered: unrecovered))
            add(currency) {
                $0.unreversedDisputes += 1
                $0.unrecovered += unrecovered
            }
            add(account: transfer >= 0 ? id(.account, Int(transfers.destination[transfer])) : nil, currency) {
                $0.unreversedDisputes += 1
                $0.unrecovered += unrecovered
            }
        }

    }

    /// Payouts created in the range, from the payout table and the balance transactions it paid out.
    private mutating func addPayouts() {
        let bts = storage.balanceTransactions
        let payouts = storage.payouts
        for p in inRange(payouts.created) {
            let payoutID = id(.payout, p)
            let currency = payouts.currency[p].currency
            let reconciliation = payouts.reconciliation[p]
            if payouts.status[p] == .failed {
                exception(
                    .payoutFailed, payoutID, id(.balanceTransaction, payouts.failureBalanceTransaction[p]), currency,
                    .amount(payouts.amount[p]), .amount(0))
            }
            // A manual payout, or an automatic one Stripe is still reconciling: shown, without figures.
            guard reconciliation == .completed, payouts.automatic[p] else {
                truth.payouts.append(
                    PayoutRow(
                        payoutID: payoutID, created: payouts.created[p], arrivalDate: payouts.arrivalDate[p],
                        currency: currency, amount: payouts.amount[p],
                        status: PayoutStatus(rawValue: payouts.status[p].name),
                        reconciliationStatus: PayoutReconciliationStatus(rawValue: reconciliation.name),
                        balanceTransactions: nil, netOfTransactions: nil,
                        difference: nil, automatic: payouts.automatic[p]))
                continue
            }
            let paidOut = payouts.transactions.items(of: p).map(Int.init)
            let net = paidOut.reduce(Int64(0)) { $0 + bts.amount[$1] - bts.fee[$1] }
            truth.payouts.append(
                PayoutRow(
                    payoutID: payoutID, created: payouts.created[p], arrivalDate: payouts.arrivalDate[p],
                    currency: currency, amount: payouts.amount[p],
                    status: PayoutStatus(rawValue: payouts.status[p].name),
                    reconciliationStatus: PayoutReconciliationStatus(rawValue: reconciliation.name),
                    balanceTransactions: paidOut.count,
                    netOfTransactions: net, difference: payouts.amount[p] - net))
            for b in paidOut {
                truth.payoutTransactions.append(
                    PayoutTransactionRow(
                        payoutID: payoutID, balanceTransactionID: id(.balanceTransaction, b), created: bts.created[b],
                        availableOn: bts.availableOn[b], currency: bts.currency[b].currency, gross: bts.amount[b],
                        fee: bts.fee[b], net: bts.amount[b] - bts.fee[b],
                        reportingCategory: ReportingCategory(rawValue: bts.type[b].reportingCategory),
                        sourceID: bts.source[b] >= 0 ? id(bts.sourceKind[b], Int(bts.source[b])) : nil))
            }
            if net != payouts.amount[p] {
                exception(
                    .payoutMismatch, payoutID, id(.balanceTransaction, payouts.balanceTransaction[p]), currency,
                    .amount(net), .amount(payouts.amount[p]))
            }
        }

    }

    private mutating func addLedger() {
        let bts = storage.balanceTransactions
        var ledger: [String: LedgerRow] = [:]
        for b in inRange(bts.created) {
            let category = bts.type[b].reportingCategory
            let balanceType = bts.balanceType[b].name
            let key = bts.currency[b].code + "/" + balanceType + "/" + category
            var row =
                ledger[key]
                ?? LedgerRow(
                    currency: bts.currency[b].currency, balanceType: BalanceType(rawValue: balanceType),
                    reportingCategory: ReportingCategory(rawValue: category),
                    count: 0, gross: 0, fee: 0, net: 0)
            row.count += 1
            row.gross += bts.amount[b]
            row.fee += bts.fee[b]
            row.net += bts.amount[b] - bts.fee[b]
            ledger[key] = row
        }
        truth.ledger = ledger.values.sorted {
            ($0.currency.rawValue, $0.balanceType.rawValue, $0.reportingCategory.rawValue)
                < ($1.currency.rawValue, $1.balanceType.rawValue, $1.reportingCategory.rawValue)
        }
    }

    /// Stripe's costs outside charges created in the range (`stripe_costs.csv`): what the generator billed, by the
    /// day it named (else the local day it was billed on), currency and what it is for; the cost is `−net`.
    private mutating func addStripeCosts() {
        let bts = storage.balanceTransactions
        var rows: [String: StripeCostRow] = [:]
        for b in inRange(bts.created) {
            guard let cost = bts.stripeCosts[Int32(b)] else { continue }
            let day = cost.reportDay ?? days.days[days.index(of: bts.created[b]) ?? 0].date
            let currency = bts.currency[b].currency
            let amount = -net(Int32(b))
            let key = day + "/" + currency.rawValue + "/" + cost.reportKind
            rows[key, default: StripeCostRow(day: day, currency: currency, kind: cost.reportKind, count: 0, amount: 0)]
                .count += 1
            rows[key]?.amount += amount
            add(currency) { $0.stripeCosts += amount }
        }
        truth.stripeCosts = rows.values.sorted(by: StripeCostRow.reportOrder)
    }

    /// The losses the platform covered for connected accounts in the range: each collection the generator made, its
    /// loss `−net` in the statement of the account it collected for; the one naming no account under none, with a
    /// `collection_account_unknown` exception (actual: the loss).
    private mutating func addLossesCovered() {
        let bts = storage.balanceTransactions
        for b in inRange(bts.created) {
            guard let collection = bts.collections[Int32(b)] else { continue }
            let currency = bts.currency[b].currency
            let loss = -net(Int32(b))
            let account = collection.account >= 0 ? id(.account, Int(collection.account)) : nil
            if account == nil {
                exception(.collectionAccountUnknown, id(.balanceTransaction, b), nil, currency, nil, .amount(loss))
            }
            add(account: account, currency) { $0.lossesCovered += loss }
            add(currency) { $0.lossesCovered += loss }
        }
    }

    /// What connected accounts paid the platform in the range: each account debit and each payment from an
    /// account's balance the generator made, `amount_captured − amount_refunded`, in the statement of the account it
    /// was paid from.
    private mutating func addAccountDebits() {
        let charges = storage.charges
        for c in inRange(charges.created) where charges.method[c].isFromAnAccount && charges.status[c] == .succeeded {
            guard let account = charges.payingAccount[Int32(c)] else { continue }
            let debited = charges.amountCaptured[c] - charges.amountRefunded[c]
            let currency = charges.currency[c].currency
            add(account: id(.account, Int(account)), currency) { $0.accountDebits += debited }
            add(currency) { $0.accountDebits += debited }
        }
    }

    /// The account debits the world made to give back charge `charge`'s money, as served: when, how much, and how
    /// their metadata names it.
    func debitsGivingBack(_ charge: Int) -> [(created: Int64, amount: Int64, link: WorldDebitLink)] {
        let charges = storage.charges
        return charges.debitLinks.compactMap { debit, link in
            let d = Int(debit)
            guard link.charge == charge, charges.status[d] == .succeeded else { return nil }
            return (charges.created[d], charges.amountCaptured[d] - charges.amountRefunded[d], link)
        }
    }

    private mutating func sortRows() {
        truth.platformFees.sort { $0.chargeID < $1.chargeID }
        truth.transferGroups.sort { ($0.created, $0.transferGroup) < ($1.created, $1.transferGroup) }
        truth.skippedTransfers.sort { $0.chargeID < $1.chargeID }
        truth.unreversedDisputes.sort { $0.disputeID < $1.disputeID }
        truth.exceptions.sort { ($0.objectID, $0.kind.rawValue) < ($1.objectID, $1.kind.rawValue) }
        truth.summary = summary.values.sorted { $0.currency < $1.currency }
        truth.payouts.sort { $0.payoutID < $1.payoutID }
        truth.payoutTransactions.sort {
            ($0.payoutID, $0.balanceTransactionID) < ($1.payoutID, $1.balanceTransactionID)
        }
        truth.connectedAccounts = accounts.values.sorted {
            ($0.destinationAccount ?? "", $0.currency.rawValue) < ($1.destinationAccount ?? "", $1.currency.rawValue)
        }
    }
}
