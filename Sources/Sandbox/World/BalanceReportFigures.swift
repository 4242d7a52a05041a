// What Stripe's two balance summary reports say about the world: its payments balance per currency, rolled
// forward over an interval, and the interval's activity per reporting category.

/// The figures of `balance.summary.1` and `balance_change_from_activity.summary.1` for one currency over
/// `[start, end)`, computed from the world's balance transactions (minor units).
///
/// Only the `payments` balance counts. A balance transaction is dated at its `created`, except the `payout`
/// balance transaction of an automatic payout, dated at its `available_on` (``WorldStorage/isDatedAtAvailableOn(_:)``).
/// The world starts at a zero balance.
struct BalanceReportFigures: Sendable, Equatable {
    /// One reporting category's row of the activity report.
    struct ActivityRow: Sendable, Equatable {
        var reportingCategory: String
        var count: Int64 = 0
        var gross: Int64 = 0
        var fee: Int64 = 0
        var net: Int64 = 0
    }

    var starting: Int64 = 0
    var activity: Int64 = 0
    var payouts: Int64 = 0
    var ending: Int64 { starting + activity + payouts }
    /// The interval's activity (payouts and their reversals left out), one row per reporting category, by name.
    var activityRows: [ActivityRow] = []

    /// The reporting categories that are payouts in `balance.summary.1`: every other one is activity.
    static let payoutCategories: Set<String> = [
        BTType.payout.reportingCategory, BTType.payoutFailure.reportingCategory,
    ]

    init(storage: WorldStorage, currency: WorldCurrency, start: Int64, end: Int64) {
        let b = storage.balanceTransactions
        var rows: [String: ActivityRow] = [:]
        for index in 0..<b.count where b.currency[index] == currency && b.balanceType[index] == .payments {
            let date = storage.reportDate(index)
            guard date < end else { continue }
            let net = b.amount[index] - b.fee[index]
            guard date >= start else {
                starting += net
                continue
            }
            let category = b.type[index].reportingCategory
            if Self.payoutCategories.contains(category) {
                payouts += net
                continue
            }
            activity += net
            var row = rows[category] ?? ActivityRow(reportingCategory: category)
            row.count += 1
            row.gross += b.amount[index]
            row.fee += b.fee[index]
            row.net += net
            rows[category] = row
        }
        activityRows = rows.values.sorted { $0.reportingCategory < $1.reportingCategory }
    }
}

extension WorldStorage {
    /// Whether balance transaction `index` is dated at its `available_on` rather than its `created` in Stripe's
    /// balance reports: the `payout` balance transaction of an automatic payout.
    func isDatedAtAvailableOn(_ index: Int) -> Bool {
        balanceTransactions.type[index] == .payout && balanceTransactions.sourceKind[index] == .payout
            && payouts.automatic[Int(balanceTransactions.source[index])]
    }

    /// The moment balance transaction `index` counts at in Stripe's balance reports.
    func reportDate(_ index: Int) -> Int64 {
        isDatedAtAvailableOn(index) ? balanceTransactions.availableOn[index] : balanceTransactions.created[index]
    }
}
