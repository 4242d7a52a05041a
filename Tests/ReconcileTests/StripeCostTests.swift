import Foundation
import ReconCore
import Reconcile
import Testing

/// Stripe's costs outside charges (docs/RULES.md, "The platform's other money"): `stripe_costs.csv` and the Summary's
/// `stripe_costs`.
@Suite struct StripeCostTests {
    static func cost(
        _ id: String, _ description: String?, net: Int64, type: BalanceTransactionType = .stripeFee,
        category: ReportingCategory = .fee, currency: Currency = .usd, source: String? = nil,
        created: Int64 = Book.from + 3_600
    ) -> BalanceTransactionFacts {
        BalanceTransactionFacts(
            id: id, created: created, currency: currency, amount: net, fee: 0, net: net, type: type,
            reportingCategory: category, sourceID: source, exchangeRate: nil, status: .available,
            description: description)
    }

    @Test(
        arguments: [
            ("Card payments (2026-11-20): Stripe volume fees", "2026-11-20", "Card payments: Stripe volume fees"),
            (
                "Connect (2026-10-01 - 2026-10-31): Account Volume Billing", "2026-10-01",
                "Connect: Account Volume Billing"
            ),
            ("Card Dispute Countered Fee (2026-11-03)", "2026-11-03", "Card Dispute Countered Fee"),
            ("Radar (2026-11-20): Standard", "2026-11-20", "Radar: Standard"),
            ("Radar: Standard", nil, "Radar: Standard"),
            ("Card payments (2026-02-30): Stripe volume fees", nil, "Card payments: Stripe volume fees"),
            ("Billing (usage): Invoicing Plus", nil, "Billing (usage): Invoicing Plus"),
            ("  ", nil, "stripe_fee"),
        ] as [(String, String?, String)])
    func aCostsDayAndKindComeFromItsDescription(description: String, day: String?, kind: String) throws {
        let cost = try #require(StripeCost(Self.cost("txn_1", description, net: -100)))
        #expect(cost.namedDay == day)
        #expect(cost.kind == kind)
        #expect(cost.amount == 100)
    }

    @Test func onlyCostsNoChargeIsTheSourceOfAreStripesCosts() {
        // A charge's own fee line, a transfer, an unknown type in category fee, network costs, a credit
        #expect(StripeCost(Self.cost("txn_1", "x", net: -5, source: "ch_1")) == nil)
        #expect(StripeCost(Self.cost("txn_2", "x", net: -5, source: "py_1")) == nil)
        #expect(StripeCost(Self.cost("txn_3", "x", net: -5, type: .transfer, category: .transfer)) == nil)
        #expect(StripeCost(Self.cost("txn_4", "x", net: -5, type: "billing_fee_2027", category: .fee))?.amount == 5)
        #expect(
            StripeCost(Self.cost("txn_5", "x", net: -7, type: .networkCost, category: .networkCost))?.amount == 7)
        #expect(StripeCost(Self.cost("txn_6", "x", net: 40))?.amount == -40)
        #expect(StripeCost(Self.cost("txn_7", "x", net: .min)) == nil)
    }

    @Test func costsAreListedByTheDayTheyNameCurrencyAndKindAndAddUpInTheSummary() {
        // Given the range's costs: two volume-fee lines naming the day before, network costs named weeks earlier, a
        // credit, gbp fees, one naming no day, and a charge's own fee line
        var book = Book()
        book.input.balanceTransactions += [
            Self.cost("txn_1", "Card payments (2026-10-31): Stripe volume fees", net: -1_200),
            Self.cost("txn_2", "Card payments (2026-10-31): Stripe volume fees", net: -300, created: Book.from + 7_200),
            Self.cost(
                "txn_3", "Card payments (2026-10-02): Transaction network costs", net: -450, type: .networkCost,
                category: .networkCost),
            Self.cost("txn_4", "Card payments (2026-10-30): Credit for previously-assessed fees", net: 90),
            Self.cost("txn_5", "Card payments (2026-10-31): Stripe volume fees", net: -1_000, currency: .gbp),
            Self.cost("txn_6", "Radar: Standard", net: -500, created: Book.from + 80_000),
            Self.cost("txn_7", "Stripe processing fees", net: -59, source: "ch_x"),
            Self.cost("txn_8", "Card payments (2026-11-01): Stripe volume fees", net: -9, created: Book.to + 60),
        ]
        // When reconciled
        let report = book.reconcile()
        // Then one row per day named, currency and kind, sorted; the cost after the range is not there
        #expect(
            report.stripeCosts == [
                StripeCostRow(
                    day: "2026-10-02", currency: .usd, kind: "Card payments: Transaction network costs", count: 1,
                    amount: 450),
                StripeCostRow(
                    day: "2026-10-30", currency: .usd, kind: "Card payments: Credit for previously-assessed fees",
                    count: 1, amount: -90),
                StripeCostRow(
                    day: "2026-10-31", currency: .gbp, kind: "Card payments: Stripe volume fees", count: 1,
                    amount: 1_000),
                StripeCostRow(
                    day: "2026-10-31", currency: .usd, kind: "Card payments: Stripe volume fees", count: 2,
                    amount: 1_500),
                StripeCostRow(day: "2026-11-01", currency: .usd, kind: "Radar: Standard", count: 1, amount: 500),
            ])
        // and the Summary's stripe_costs is their sum per currency
        #expect(report.summary.first { $0.currency == .usd }?.stripeCosts == 2_360)
        #expect(report.summary.first { $0.currency == .gbp }?.stripeCosts == 1_000)
        // and the ledger still holds every one of them
        #expect(report.ledger.first { $0.currency == .usd && $0.reportingCategory == .fee }?.count == 5)
    }

    @Test func aCostNamingNoDayCountsOnTheLocalDayItWasCreated() {
        // Given a cost created at 23:30 UTC, reported in Europe/Berlin (00:30 the next day there)
        var book = Book()
        book.input.to = Book.from + 2 * Book.day
        book.input.balanceTransactions = [
            Self.cost("txn_1", "Radar: Standard", net: -500, created: Book.from + Book.day - 1_800)
        ]
        // When reconciled with the range's days in Berlin
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let days = ReportingDays(from: book.input.from, to: book.input.to, timeZone: berlin)
        let report = Reconciler.reconcile(book.input, days: days)
        // Then it counts on the Berlin day
        #expect(report.stripeCosts.map(\.day) == ["2026-11-02"])
    }

    @Test func costsReadBesideTheLedgersTotalsCountOnceAndSumsThatOverflowAreReported() {
        // Given the part holding the ledger's totals, with two costs, one of them also among the part's judged
        var book = Book()
        let huge = Self.cost("txn_1", "Card payments (2026-10-31): Stripe volume fees", net: -(Int64.max - 10))
        let more = Self.cost("txn_2", "Card payments (2026-10-31): Stripe volume fees", net: -100)
        book.input.balanceTransactions = [huge]
        book.input.stripeCostTransactions = [huge, more]
        // When reconciled
        let report = book.reconcile()
        // Then the first counts once, and the second, which would overflow the total, is an exception
        #expect(report.stripeCosts.map(\.count) == [1])
        #expect(report.summary.first?.stripeCosts == Int64.max - 10)
        #expect(report.exceptions.contains { $0.kind == .amountOverflow && $0.objectID == "txn_2" })
    }
}
