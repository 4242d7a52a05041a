import ReconCore

// The world is stored as struct-of-arrays of small integers: one table per Stripe object kind, one array per
// field, the object's index in its table is the index inside its id. Tables are sorted by `created` (ties by
// generation order), so "newest first" is simply descending index. References between objects are indexes,
// `-1` for none. Nothing is rendered ahead of time: JSON is written per request.

/// The currencies of the world, with the platform's settlement currency for each: eur settles in usd
/// (cross-currency balance transactions with `exchange_rate`), the others settle in their own currency.
package enum WorldCurrency: UInt8, CaseIterable, Sendable {
    case usd, eur, gbp, jpy, bhd

    package var code: String {
        switch self {
        case .usd: "usd"
        case .eur: "eur"
        case .gbp: "gbp"
        case .jpy: "jpy"
        case .bhd: "bhd"
        }
    }

    package var currency: Currency {
        switch self {
        case .usd: .usd
        case .eur: .eur
        case .gbp: .gbp
        case .jpy: .jpy
        case .bhd: .bhd
        }
    }

    var settlement: WorldCurrency { self == .eur ? .usd : self }

    /// How many decimals its minor unit has (Stripe's exponent): 0 for jpy, 3 for bhd, 2 for the others.
    var minorUnitDigits: Int {
        switch self {
        case .jpy: 0
        case .bhd: 3
        case .usd, .eur, .gbp: 2
        }
    }

    /// Stripe requires three-decimal amounts to end in 0, so every bhd amount is a multiple of 10.
    var granularity: Int64 { currency.exponent == 3 ? 10 : 1 }

    /// The dispute fee in this (settlement) currency's minor units.
    var disputeFee: Int64 {
        switch self {
        case .usd, .eur: 1500
        case .gbp: 2000
        case .jpy: 2000
        case .bhd: 6000
        }
    }

    /// How many minor units of this currency 1,000 usd buys at the world's reference rates (1 usd = 150 jpy =
    /// 0.79 gbp = 0.92 eur = 0.377 bhd).
    private var minorUnitsPerThousandDollars: Int64 {
        switch self {
        case .usd: 100_000
        case .eur: 92_000
        case .gbp: 79_000
        case .jpy: 150_000
        case .bhd: 377_000
        }
    }

    /// The reference exchange rate from this currency to `target`, in millionths of a `target` minor unit per minor
    /// unit of this one, rounded half up: usd → jpy is `1_500_000` (1.5 yen a cent), the same currency `1_000_000`.
    func referenceRate(to target: WorldCurrency) -> Int32 {
        let from = minorUnitsPerThousandDollars
        return Int32((target.minorUnitsPerThousandDollars * 1_000_000 + from / 2) / from)
    }

    /// A typical charge amount in minor units.
    func randomAmount(_ rng: inout SplitMix64) -> Int64 {
        switch self {
        case .usd, .eur, .gbp: rng.int(500...60_000)
        case .jpy: rng.int(300...60_000)
        case .bhd: rng.int(100...6_000) * 10
        }
    }
}

package enum WorldChargeStatus: UInt8, Sendable {
    case succeeded, pending, failed

    var name: String {
        switch self {
        case .succeeded: "succeeded"
        case .pending: "pending"
        case .failed: "failed"
        }
    }
}

/// How the customer paid: a card captured at once, a bank debit that settles days later, or a card under
/// asynchronous capture (its transfer is attached a little later).
package enum PaymentMethodKind: UInt8, Sendable {
    case card, bankDebit, cardAsyncCapture
    /// An account debit: the platform charges a connected account (`stripe_account`, a `py_…` whose `source` is the
    /// account; docs/RULES.md, "The platform's other money"). No PaymentIntent, no fee.
    case accountDebit
    /// A connected account paying the platform from its Stripe balance (`stripe_balance`): revenue, no debit.
    case stripeBalance

    /// Whether the payment comes from a connected account (``accountDebit``, ``stripeBalance``): no PaymentIntent.
    package var isFromAnAccount: Bool { self == .accountDebit || self == .stripeBalance }
}

package enum WorldDisputeStatus: UInt8, CaseIterable, Sendable {
    case warningNeedsResponse, warningUnderReview, warningClosed, needsResponse, underReview, won, lost, prevented

    package var name: String {
        switch self {
        case .warningNeedsResponse: "warning_needs_response"
        case .warningUnderReview: "warning_under_review"
        case .warningClosed: "warning_closed"
        case .needsResponse: "needs_response"
        case .underReview: "under_review"
        case .won: "won"
        case .lost: "lost"
        case .prevented: "prevented"
        }
    }

    var isInquiry: Bool { self == .warningNeedsResponse || self == .warningUnderReview || self == .warningClosed }
    /// Statuses whose funds were withdrawn from the platform (and, for `won`, later reinstated).
    package var withdrawsFunds: Bool { self == .needsResponse || self == .underReview || self == .lost || self == .won }
    /// Statuses docs/RULES.md counts as still withdrawn (candidates for an unreversed dispute).
    package var fundsStillWithdrawn: Bool { self == .needsResponse || self == .underReview || self == .lost }
}

/// The balance transaction types the world uses, with Stripe's reporting category for each.
package enum BTType: UInt8, Sendable {
    case charge, payment, paymentFailureRefund, refund, paymentRefund, transfer, transferRefund
    case applicationFee, applicationFeeRefund, disputeWithdrawal, disputeReinstatement
    /// An automatic payout to the platform's bank account, and the return of a failed payout's funds.
    case payout, payoutFailure
    /// The funds of a refund that failed, back on the platform (`refund.failure_balance_transaction`).
    case refundFailure
    /// A card spend of the platform's Stripe Issuing program, from its `issuing` balance.
    case issuingTransaction
    /// The refund of a partial capture's uncaptured remainder (API versions before `2025-03-31.basil`): `type`
    /// `refund`, `reporting_category` `partial_capture_reversal`.
    case partialCaptureReversal
    /// One of Stripe's costs outside charges (``WorldStripeCost``): IC+ card fees, Connect and Radar fees.
    case stripeFee
    /// Network costs Stripe bills on IC+ pricing (``WorldStripeCost/Kind/networkCosts``).
    case networkCost
    /// Stripe collecting from the platform for a connected account that stayed negative (``WorldCollection``).
    case connectCollectionTransfer
    /// Funds moved into (negative) or out of (positive) the Connect reserve: never a loss.
    case reserveTransaction

    var type: String {
        switch self {
        case .charge: "charge"
        case .payment: "payment"
        case .paymentFailureRefund: "payment_failure_refund"
        case .refund: "refund"
        case .paymentRefund: "payment_refund"
        case .transfer: "transfer"
        case .transferRefund: "transfer_refund"
        case .applicationFee: "application_fee"
        case .applicationFeeRefund: "application_fee_refund"
        case .disputeWithdrawal, .disputeReinstatement: "adjustment"
        case .payout: "payout"
        case .payoutFailure: "payout_failure"
        case .refundFailure: "refund_failure"
        case .issuingTransaction: "issuing_transaction"
        case .partialCaptureReversal: "refund"
        case .stripeFee: "stripe_fee"
        case .networkCost: "network_cost"
        case .connectCollectionTransfer: "connect_collection_transfer"
        case .reserveTransaction: "reserve_transaction"
        }
    }

    package var reportingCategory: String {
        switch self {
        case .charge, .payment: "charge"
        case .paymentFailureRefund: "charge_failure"
        case .refund, .paymentRefund: "refund"
        case .transfer: "transfer"
        case .transferRefund: "transfer_reversal"
        case .applicationFee: "platform_earning"
        case .applicationFeeRefund: "platform_earning_refund"
        case .disputeWithdrawal: "dispute"
        case .disputeReinstatement: "dispute_reversal"
        case .payout: "payout"
        case .payoutFailure: "payout_reversal"
        case .refundFailure: "refund_failure"
        case .issuingTransaction: "issuing_transaction"
        case .partialCaptureReversal: "partial_capture_reversal"
        case .stripeFee: "fee"
        case .networkCost: "network_cost"
        case .connectCollectionTransfer: "connect_collection_transfer"
        case .reserveTransaction: "connect_reserved_funds"
        }
    }
}

/// The balance of the platform a balance transaction affects (its `balance_type`). Automatic payouts pay out the
/// `payments` balance only.
package enum WorldBalanceType: UInt8, Sendable {
    case payments
    /// Funds set aside to cover refunds and disputes: some refunds and dispute withdrawals draw on it.
    case refundAndDisputePrefunding
    /// The balance that funds the platform's Issuing cards.
    case issuing

    package var name: String {
        switch self {
        case .payments: "payments"
        case .refundAndDisputePrefunding: "refund_and_dispute_prefunding"
        case .issuing: "issuing"
        }
    }
}

/// Why a transfer exists.
enum TransferRole: UInt8, Sendable {
    /// The transfer of a destination charge (`charge.transfer`).
    case destination
    /// A separate transfer funded from the balance (`source_transaction` null).
    case separate
    /// A separate transfer paying back recovered dispute funds after a won dispute.
    case disputeRepayment
    /// A transfer the platform made itself for a separately transferred charge (Stripe's "Separate charges and
    /// transfers"): it carries the charge's `transfer_group`, names the charge as `source_transaction`, or both.
    case separateCharge
}

/// Owner → items, for one-to-many links (a charge's refunds, a transfer's reversals). Items of each owner are
/// in ascending index order, which is creation order.
package struct Adjacency: Sendable {
    private(set) var offsets: [Int32] = [0]
    private(set) var items: [Int32] = []

    init() {}

    /// `owner[item]` is the owner of each item (`-1` for none).
    init(ownerCount: Int, owner: [Int32]) {
        var counts = [Int32](repeating: 0, count: ownerCount + 1)
        for value in owner where value >= 0 { counts[Int(value) + 1] += 1 }
        for index in 0..<ownerCount { counts[index + 1] += counts[index] }
        offsets = counts
        var next = counts
        items = [Int32](repeating: 0, count: Int(counts[ownerCount]))
        for (item, value) in owner.enumerated() where value >= 0 {
            items[Int(next[Int(value)])] = Int32(item)
            next[Int(value)] += 1
        }
    }

    package func items(of owner: Int) -> ArraySlice<Int32> {
        items[Int(offsets[owner])..<Int(offsets[owner + 1])]
    }

    /// The links of the first `owners` owners only.
    func prefix(owners: Int) -> Adjacency {
        var result = Adjacency()
        result.offsets = Array(offsets.prefix(owners + 1))
        result.items = Array(items.prefix(Int(offsets[owners])))
        return result
    }
}

package struct ChargeTable: Sendable {
    package var created: [Int64] = []
    package var amount: [Int64] = []
    package var currency: [WorldCurrency] = []
    package var status: [WorldChargeStatus] = []
    package var method: [PaymentMethodKind] = []
    /// Charge → the connected account it was paid from (its `source`), for the payments from an account
    /// (``PaymentMethodKind/isFromAnAccount``).
    package var payingAccount: [Int32: Int16] = [:]
    /// Charge → what the account debit gives back, for the debits linked to an earlier charge.
    package var debitLinks: [Int32: WorldDebitLink] = [:]
    /// When the payment settled (succeeded or failed): at once for a card, days later for a bank debit, which is
    /// `pending` until then. A bank debit's transfer, application fee and failure come at this moment.
    package var settledAt: [Int64] = []
    /// The fee style of a destination charge, `nil` for a plain charge.
    package var style: [FeeStyle?] = []
    /// The PaymentIntent's `transfer_data.destination` (account index), `-1` for none.
    package var intentDestination: [Int16] = []
    /// The PaymentIntent's `transfer_data.amount`, `-1` for none.
    package var intentTransferAmount: [Int64] = []
    /// The PaymentIntent's `application_fee_amount`, `-1` for none.
    package var intentFeeAmount: [Int64] = []
    /// Bit 0: the charge carries `transfer_data` (as its intent asked); bit 1: it shows `application_fee_amount`;
    /// bit 2: disputed; bit 3: made `on_behalf_of` its destination account (it settles in that account's currency);
    /// bit 4: `captured: false` on a charge that did not fail (a multicapture in progress, an authorisation never
    /// captured).
    var flags: [UInt8] = []
    /// Presentment → settlement exchange rate in millionths, 0 when the charge settles in its own currency (the
    /// settlement currency is its balance transaction's: the platform's for the charge's currency, or the
    /// connected account's for an `on_behalf_of` charge).
    var rate: [Int32] = []
    package var transfer: [Int32] = []
    package var fee: [Int32] = []
    package var balanceTransaction: [Int32] = []
    package var failureBalanceTransaction: [Int32] = []
    /// Stripe's `amount_refunded`: refunds that did not fail, the refund of an uncaptured remainder included.
    package var amountRefunded: [Int64] = []
    /// `amount_captured` of a charge that did not fail (a failed one shows 0): `amount`, less for a partial capture,
    /// what was captured so far for a multicapture in progress, 0 for an authorisation that expired uncaptured.
    package var amountCaptured: [Int64] = []
    /// The `transfer_group` of a charge that is not a destination charge (its PaymentIntent's too), an index of
    /// ``WorldStorage/groupName(_:)``; `-1` for none.
    package var group: [Int32] = []
    package var refunds = Adjacency()
    package var disputes = Adjacency()

    var count: Int { created.count }

    package static let hasTransferData: UInt8 = 1
    package static let showsFeeAmount: UInt8 = 2
    static let disputed: UInt8 = 4
    package static let onBehalfOf: UInt8 = 8
    package static let uncaptured: UInt8 = 16

    /// Whether docs/RULES.md counts the charge (`c`): succeeded, and something captured (whatever `captured` says).
    package func counts(_ index: Int) -> Bool { status[index] == .succeeded && amountCaptured[index] > 0 }

    package func has(_ flag: UInt8, _ index: Int) -> Bool { flags[index] & flag != 0 }
    /// Whether docs/RULES.md calls this charge a destination charge.
    package func isDestinationCharge(_ index: Int) -> Bool {
        has(ChargeTable.hasTransferData, index) || transfer[index] >= 0 || intentDestination[index] >= 0
    }
}

package struct TransferTable: Sendable {
    package var created: [Int64] = []
    package var amount: [Int64] = []
    package var currency: [WorldCurrency] = []
    /// The currency of its balance transaction and its reversals': the platform's settlement currency for the
    /// transfer's currency, or the connected account's for the transfer of an `on_behalf_of` charge.
    var settlement: [WorldCurrency] = []
    /// Transfer currency → `settlement` exchange rate in millionths, 0 when they are the same.
    var rate: [Int32] = []
    package var destination: [Int16] = []
    package var sourceCharge: [Int32] = []
    /// The `transfer_group` of a transfer of a separately transferred charge, an index of
    /// ``WorldStorage/groupName(_:)``; `-1` for none (a destination charge's transfer shows its PaymentIntent's
    /// `group_pi_…` instead).
    package var group: [Int32] = []
    var role: [TransferRole] = []
    /// `metadata.dispute_id` of a dispute repayment, `-1` for none.
    var dispute: [Int32] = []
    package var balanceTransaction: [Int32] = []
    package var amountReversed: [Int64] = []
    package var reversals = Adjacency()

    var count: Int { created.count }
}

package struct ReversalTable: Sendable {
    package var created: [Int64] = []
    var transfer: [Int32] = []
    package var amount: [Int64] = []
    package var sourceRefund: [Int32] = []
    /// `metadata.dispute_id` of a dispute recovery reversal, `-1` for none.
    package var dispute: [Int32] = []
    package var balanceTransaction: [Int32] = []

    var count: Int { created.count }
}

package struct FeeTable: Sendable {
    package var created: [Int64] = []
    package var charge: [Int32] = []
    /// The fee's own currency (its refunds' too): the charge's, or the connected account's settlement currency for
    /// a cross-border fee.
    package var currency: [WorldCurrency] = []
    /// In `currency`.
    package var amount: [Int64] = []
    package var balanceTransaction: [Int32] = []
    package var amountRefunded: [Int64] = []
    package var refunds = Adjacency()

    var count: Int { created.count }
}

package struct FeeRefundTable: Sendable {
    var created: [Int64] = []
    var fee: [Int32] = []
    var amount: [Int64] = []
    package var balanceTransaction: [Int32] = []

    var count: Int { created.count }
}

package struct RefundTable: Sendable {
    package var created: [Int64] = []
    package var charge: [Int32] = []
    package var amount: [Int64] = []
    package var balanceTransaction: [Int32] = []
    package var transferReversal: [Int32] = []
    /// The `refund_failure` balance transaction of a refund that failed by the world's end (`status: failed`),
    /// `-1` for a refund that succeeded.
    package var failureBalanceTransaction: [Int32] = []
    /// Index into ``failureReasons`` of a failed refund's `failure_reason`.
    var failureReason: [UInt8] = []
    /// The refund is `pending` until it fails (a refund the bank has not confirmed yet), rather than `succeeded`.
    package var pendingUntilFailure: [Bool] = []
    /// Stripe's `reason`.
    package var reason: [WorldRefundReason] = []
    /// The refund gave back the uncaptured remainder of an authorisation (a legacy partial capture's, or an expired
    /// authorisation's whole amount): money never captured, not a refund to the customer (docs/RULES.md).
    package var uncapturedRemainder: [Bool] = []

    var count: Int { created.count }

    package func failed(_ index: Int) -> Bool { failureBalanceTransaction[index] >= 0 }

    /// Stripe's `status`: `failed`, else `pending` for a refund that is to fail and has not yet, else `succeeded`.
    package func statusName(_ index: Int) -> String {
        failed(index) ? "failed" : pendingUntilFailure[index] ? "pending" : "succeeded"
    }

    /// `failure_reason` values Stripe gives card refunds that fail.
    static let failureReasons = ["expired_or_canceled_card", "lost_or_stolen_card", "unknown"]
}

/// A refund's `reason`.
package enum WorldRefundReason: UInt8, Sendable {
    /// `requested_by_customer`: every refund the platform made.
    case requestedByCustomer
    /// `null`: the refund Stripe made of a partial capture's uncaptured remainder.
    case none
    /// `expired_uncaptured_charge`: the refund Stripe made of an authorisation that expired uncaptured.
    case expiredUncapturedCharge

    /// The JSON value, `nil` for null.
    package var name: String? {
        switch self {
        case .requestedByCustomer: "requested_by_customer"
        case .none: nil
        case .expiredUncapturedCharge: "expired_uncaptured_charge"
        }
    }
}

package struct DisputeTable: Sendable {
    package var created: [Int64] = []
    package var charge: [Int32] = []
    package var amount: [Int64] = []
    /// The status as served: the last one reached by the world's "now".
    package var status: [WorldDisputeStatus] = []
    /// The status before ``statusChangedAt`` (the same as ``status`` for a dispute whose status never changed).
    package var earlierStatus: [WorldDisputeStatus] = []
    /// When the dispute moved from ``earlierStatus`` to ``status`` (a won dispute's decision, an inquiry's
    /// escalation into a chargeback), `Int64.max` when it did not by the world's "now".
    package var statusChangedAt: [Int64] = []
    var reason: [UInt8] = []
    package var withdrawal: [Int32] = []
    package var reinstatement: [Int32] = []
    /// The transfer that paid recovered funds back after a win, `-1` for none.
    package var repayment: [Int32] = []

    var count: Int { created.count }

    static let reasons = ["fraudulent", "product_not_received", "duplicate", "subscription_canceled", "general"]
}

package struct BalanceTransactionTable: Sendable {
    package var created: [Int64] = []
    package var type: [BTType] = []
    package var amount: [Int64] = []
    package var fee: [Int64] = []
    package var currency: [WorldCurrency] = []
    var rate: [Int32] = []
    package var sourceKind: [StripeIDKind] = []
    package var source: [Int32] = []
    package var availableOn: [Int64] = []
    /// Forced `pending` (a bank debit that has not settled yet).
    var pending: [Bool] = []
    package var balanceType: [WorldBalanceType] = []
    /// Balance transaction → the Stripe cost it is (its description), for the `stripe_fee` and `network_cost` ones.
    package var stripeCosts: [Int32: WorldStripeCost] = [:]
    /// Balance transaction → the collection it is, for the `connect_collection_transfer` ones.
    package var collections: [Int32: WorldCollection] = [:]

    var count: Int { created.count }

    var net: (Int) -> Int64 { { [amount, fee] index in amount[index] - fee[index] } }
}

/// Everything the world holds; immutable once generated and shared by every request.
package final class WorldStorage: Sendable {
    let seed: UInt64
    let start: Int64
    /// The moment the world is served as of (its "now"): every object was created before it.
    package let end: Int64
    /// The end the world was generated up to: ``end``, or a later moment for a world served as of an earlier one.
    let plannedEnd: Int64
    /// The number of charges the world was generated with (some ids are numbered after them).
    let plannedChargeCount: Int
    let accountCount: Int
    package let ids: StripeIDCodec
    package let charges: ChargeTable
    package let transfers: TransferTable
    package let reversals: ReversalTable
    package let fees: FeeTable
    package let feeRefunds: FeeRefundTable
    package let refunds: RefundTable
    package let disputes: DisputeTable
    package let balanceTransactions: BalanceTransactionTable
    package let payouts: PayoutTable
    /// Scenario → the objects that show it (charge, transfer, payout or balance transaction indexes).
    let scenarios: [SandboxScenario: [ScenarioObject]]
    /// How many `transfer_group` values the separately transferred charges use.
    package let groupCount: Int
    /// Group → the charges that carry it, and the transfers that carry it (ascending indexes).
    let groupCharges: Adjacency
    let groupTransfers: Adjacency

    /// The `transfer_group` value of group `index`: `order_000001` for the first.
    package static func groupName(_ index: Int) -> String {
        let digits = String(index + 1)
        return "order_" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// The group index a `transfer_group` value names, `nil` for none of the world's.
    func groupIndex(_ name: some StringProtocol) -> Int? {
        guard name.hasPrefix("order_"), let number = Int(name.dropFirst(6)), number >= 1, number <= groupCount,
            Self.groupName(number - 1) == name
        else { return nil }
        return number - 1
    }

    init(
        seed: UInt64, start: Int64, end: Int64, plannedEnd: Int64? = nil, plannedChargeCount: Int? = nil,
        accountCount: Int, charges: ChargeTable, transfers: TransferTable,
        reversals: ReversalTable, fees: FeeTable, feeRefunds: FeeRefundTable, refunds: RefundTable,
        disputes: DisputeTable, balanceTransactions: BalanceTransactionTable, payouts: PayoutTable,
        scenarios: [SandboxScenario: [ScenarioObject]], groupCount: Int
    ) {
        self.seed = seed
        self.start = start
        self.end = end
        self.plannedEnd = plannedEnd ?? end
        self.plannedChargeCount = plannedChargeCount ?? charges.count
        self.accountCount = accountCount
        self.ids = StripeIDCodec(seed: seed)
        self.charges = charges
        self.transfers = transfers
        self.reversals = reversals
        self.fees = fees
        self.feeRefunds = feeRefunds
        self.refunds = refunds
        self.disputes = disputes
        self.balanceTransactions = balanceTransactions
        self.payouts = payouts
        self.scenarios = scenarios
        self.groupCount = groupCount
        self.groupCharges = Adjacency(ownerCount: groupCount, owner: charges.group)
        self.groupTransfers = Adjacency(ownerCount: groupCount, owner: transfers.group)
    }
}

struct ScenarioObject: Sendable, Hashable {
    var kind: StripeIDKind
    var index: Int32
}

/// Converts a presentment amount to the settlement currency with an exchange rate in millionths, rounding half
/// away from zero (`rate == 0`: same currency).
func convert(_ amount: Int64, rate: Int32) -> Int64 {
    guard rate != 0 else { return amount }
    let magnitude = (amount.magnitude * UInt64(rate) + 500_000) / 1_000_000
    return amount < 0 ? -Int64(magnitude) : Int64(magnitude)
}
