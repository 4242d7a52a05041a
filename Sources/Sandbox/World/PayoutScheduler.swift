/// Stripe's daily automatic payouts over the platform's balance, one per settlement currency per day.
///
/// At 06:00 UTC of every day from the world's third on, each settlement currency's payout takes every balance
/// transaction of that currency and of the `payments` balance not paid out yet whose `available_on` is at or before
/// that day's midnight and that is not pending, except payouts' own; when their `net` adds up to zero or less there is no payout that day and they
/// wait for the next. Deterministically about one payout in 40 fails (`account_closed`, its funds come back a day
/// later) and one in 50 is paid out for a little more than its transactions add up to (a deliberate mismatch). A payout
/// created less than ``reconciliationLag`` before the world's end is still being reconciled (`in_progress`) and is
/// never a deliberate mismatch, which only a final list shows. One payout that arrived by a day before the world's end
/// fails during its last day (a late outcome, ``SandboxScenario/latePayoutFailed``).
struct PayoutScheduler {
    let seed: UInt64
    let start: Int64
    let end: Int64
    /// Whether one payout fails late (``SandboxScenario/latePayoutFailed``), as worlds of 200 charges or more have.
    var failsOneLate = true

    /// Seconds after midnight UTC at which the day's payouts are created.
    static let hour: Int64 = 6 * 3_600
    static let failureEvery = 40
    static let mismatchEvery = 50
    /// How long Stripe takes to finish attributing balance transactions to a payout: a day and a half.
    static let reconciliationLag: Int64 = 36 * 3_600

    struct Schedule {
        /// The payouts, in creation order (their final order: the caller does not sort them).
        var payouts = PayoutTable()
        /// Per balance transaction of the draft table: the payout that paid it out, `-1` for none.
        var paidOutBy: [Int32] = []
        var failed: [Int] = []
        var mismatched: [Int] = []
        /// The payout that was `paid` a day before the world's end and failed during its last day.
        var failedLate: [Int] = []
        /// The manual (Instant) payouts.
        var manual: [Int] = []
    }

    /// Every ``manualEvery`` days (from a seeded offset), at 15:00 UTC, the platform pays out ``manualAmount`` of its
    /// usd balance by hand, as an Instant Payout: `automatic` false, arriving the same day, attributed no transactions;
    /// its own balance transaction is paid out by the next automatic payout, as the rest of the balance is.
    static let manualEvery = 7
    static let manualHour: Int64 = 15 * 3_600
    static let manualAmount: Int64 = 5_000

    /// Creates the payouts over the draft (unsorted) table `bts` and appends their balance transactions to it.
    func schedule(_ bts: inout BalanceTransactionTable) -> Schedule {
        var result = Schedule()
        let original = bts.count
        let currencies = WorldCurrency.allCases.filter { $0.settlement == $0 }
        // Per settlement currency, what can be paid out, by the time it becomes available.
        var queues = [[Int32]](repeating: [], count: WorldCurrency.allCases.count)
        for index in 0..<original
        where !bts.pending[index] && bts.type[index] != .payout
            && bts.type[index] != .payoutFailure && bts.balanceType[index] == .payments
        {
            queues[Int(bts.currency[index].rawValue)].append(Int32(index))
        }
        for currency in currencies {
            queues[Int(currency.rawValue)].sort { (bts.availableOn[Int($0)], $0) < (bts.availableOn[Int($1)], $1) }
        }
        var next = [Int](repeating: 0, count: queues.count)
        var waiting = [[Int32]](repeating: [], count: queues.count)
        var balance = [Int64](repeating: 0, count: queues.count)
        result.paidOutBy = [Int32](repeating: -1, count: original)

        let failureOffset = Int(SplitMix64.mix(seed ^ 0x9A70_0F41) % UInt64(Self.failureEvery))
        let mismatchOffset = Int(SplitMix64.mix(seed ^ 0x9A70_313A) % UInt64(Self.mismatchEvery))
        let day: Int64 = 86_400
        var midnight = start - ((start % day) + day) % day + 2 * day
        var payouts = PayoutTable()
        // The day whose first payout that neither fails nor is a mismatch arrives by `end − 1 day` and fails during
        // the world's last day (a world of five days or more and, as the late charges, of 200 charges or more).
        let lateMidnight = end - 3 * day - ((end - 3 * day) % day + day) % day
        var lateFailurePending = failsOneLate && lateMidnight >= midnight
        // The transactions appended here that a later automatic payout pays out (manual payouts' own).
        var appendedPaidOutBy: [Int: Int32] = [:]
        let manualOffset = Int(SplitMix64.mix(seed ^ 0x9A70_3A1D) % UInt64(Self.manualEvery))
        var dayNumber = 0
        while midnight + Self.hour < end {
            let created = midnight + Self.hour
            for currency in currencies {
                let c = Int(currency.rawValue)
                while next[c] < queues[c].count, bts.availableOn[Int(queues[c][next[c]])] <= midnight {
                    let index = Int(queues[c][next[c]])
                    waiting[c].append(Int32(index))
                    balance[c] += bts.amount[index] - bts.fee[index]
                    next[c] += 1
                }
                guard balance[c] > 0 else { continue }
                let payout = payouts.count
                let fails = payout % Self.failureEvery == failureOffset
                // A deliberate mismatch only where the reconciler can see it: on a payout whose list is final.
                let reconciliation: WorldPayoutReconciliation =
                    end - created < Self.reconciliationLag ? .inProgress : .completed
                let mismatched =
                    !fails && reconciliation == .completed && payout % Self.mismatchEvery == mismatchOffset
                let amount = balance[c] + (mismatched ? 100 * currency.granularity : 0)
                let arrival = midnight + 2 * day
                for index in waiting[c] {
                    if Int(index) < original {
                        result.paidOutBy[Int(index)] = Int32(payout)
                    } else {
                        appendedPaidOutBy[Int(index)] = Int32(payout)
                    }
                }
                payouts.created.append(created)
                payouts.currency.append(currency)
                payouts.amount.append(amount)
                payouts.arrivalDate.append(arrival)
                payouts.automatic.append(true)
                payouts.netOfTransactions.append(balance[c])
                let own = bts.append(created, .payout, amount: -amount, currency: currency, source: .payout, payout)
                // Stripe dates a payout's own transaction at the payout's arrival: its Balance report takes paid-out
                // funds off the balance then (docs/RULES.md, "The books close").
                bts.availableOn[Int(own)] = arrival
                payouts.balanceTransaction.append(own)
                var status: WorldPayoutStatus = arrival <= end ? .paid : .inTransit
                var failure: Int32 = -1
                if lateFailurePending, midnight == lateMidnight, !fails, !mismatched {
                    // Paid on its arrival date, then returned by the bank two hours into the world's last day: Stripe
                    // says that some payouts that fail might initially show as paid, then change to failed.
                    lateFailurePending = false
                    failure = bts.append(
                        end - day + 2 * 3_600, .payoutFailure, amount: amount, currency: currency, source: .payout,
                        payout)
                    status = .failed
                    result.failed.append(payout)
                    result.failedLate.append(payout)
                } else if fails {
                    // The bank returns it the next day; until then (or if that is after the world's end) it travels.
                    status = .inTransit
                    let returned = created + day
                    if returned < end {
                        failure = bts.append(
                            returned, .payoutFailure, amount: amount, currency: currency, source: .payout, payout)
                        status = .failed
                        result.failed.append(payout)
                    }
                }
                if mismatched { result.mismatched.append(payout) }
                payouts.status.append(status)
                payouts.reconciliation.append(reconciliation)
                payouts.failureBalanceTransaction.append(failure)
                waiting[c].removeAll(keepingCapacity: true)
                balance[c] = 0
            }
            if dayNumber % Self.manualEvery == manualOffset, midnight + Self.manualHour < end {
                let payout = payouts.count
                let created = midnight + Self.manualHour
                let own = bts.append(
                    created, .payout, amount: -Self.manualAmount, currency: .usd, source: .payout, payout)
                let usd = Int(WorldCurrency.usd.rawValue)
                waiting[usd].append(own)
                balance[usd] -= Self.manualAmount
                payouts.created.append(created)
                payouts.currency.append(.usd)
                payouts.amount.append(Self.manualAmount)
                payouts.arrivalDate.append(midnight)
                payouts.automatic.append(false)
                payouts.netOfTransactions.append(0)
                payouts.balanceTransaction.append(own)
                payouts.status.append(.paid)
                payouts.reconciliation.append(.notApplicable)
                payouts.failureBalanceTransaction.append(-1)
                result.manual.append(payout)
            }
            dayNumber += 1
            midnight += day
        }
        result.paidOutBy += [Int32](repeating: -1, count: bts.count - original)
        for (index, payout) in appendedPaidOutBy { result.paidOutBy[index] = payout }
        result.payouts = payouts
        return result
    }
}
