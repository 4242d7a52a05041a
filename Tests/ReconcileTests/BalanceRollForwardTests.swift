import ReconCore
import Reconcile
import Testing

/// The books close (docs/RULES.md): the roll-forward of each balance, anchored on Stripe's balance, and its proofs.
@Suite struct BalanceRollForwardTests {
    static let from: Int64 = 1_795_132_800  // 2026-11-20T00:00:00Z
    static let to = from + 86_400
    static let usd = BalanceKey(currency: .usd, balanceType: .payments)

    static func snapshot(_ amounts: [BalanceKey: Int64], at takenAt: Int64) -> BalanceSnapshot {
        BalanceSnapshot(takenAt: takenAt, amounts: amounts, reportedTypes: [.payments, .issuing])
    }

    static func reconcile(_ inputs: BalanceInputs) -> ReconciliationReport {
        var input = ReconciliationInput(from: from, to: to, asOf: to + 1_800, skippedTransferGrace: 3_600)
        input.balance = inputs
        return Reconciler.reconcile(input)
    }

    /// RULES.md's second worked example: the night of 20 November reads 30.00 at 21 November 00:30, with a payout of
    /// 100.00 in transit and a +10.00 charge since midnight; the day's activity is +150.00 and the arrival of an older
    /// payout −60.00; the night before read 25.00 at 20 November 00:30, with +55.00 and −60.00 since midnight.
    static func workedExample(continuityOff: Int64 = 0) -> BalanceInputs {
        var inputs = BalanceInputs(
            dated: [usd: ["charge": 14_000, "platform_earning": 1_000, "payout": -6_000]],
            ending: BalanceAnchor(
                snapshot: snapshot([usd: 3_000], at: to + 1_800), moment: to, inTransit: [usd: 10_000],
                datedBetween: [usd: 1_000]),
            earlier: BalanceAnchor(
                snapshot: snapshot([usd: 2_500 + continuityOff], at: from + 1_800), moment: from, inTransit: [:],
                datedBetween: [usd: 5_500 - 6_000]))
        inputs.rangeName = "2026-11-20_2026-11-21"
        return inputs
    }

    @Test func theWorkedExampleRollsForwardAndIsContinuous() throws {
        let report = Self.reconcile(Self.workedExample())
        let row = try #require(report.balance.first)
        #expect(report.balance.count == 1)
        #expect(row.startingBalance == 3_000)
        #expect(row.activity == 15_000)
        #expect(row.payouts == -6_000)
        #expect(row.endingBalance == 12_000)
        #expect(row.inTransitPayouts == 10_000)
        #expect(row.stripeBalance == 3_000)
        #expect(row.stripeBalanceAt == Self.to + 1_800)
        #expect(row.continuityDifference == 0)
        #expect(row.activityByCategory.map(\.category) == ["charge", "platform_earning"])
        #expect(row.stripeReport == .notCompared)
        #expect(row.closes)
        #expect(report.exceptions.isEmpty)
    }

    @Test func aMissedTransactionIsBalanceNotContinuousByItsNet() throws {
        // Given a history that missed a +5.00 transaction of the day: Stripe's balances count it, its activity not
        var inputs = Self.workedExample()
        inputs.dated[Self.usd]?["charge"] = 13_500
        // When reconciled
        let report = Self.reconcile(inputs)
        // Then the starting balance is 5.00 too high, and the finding says so: expected the earlier snapshot's
        let row = try #require(report.balance.first)
        #expect(row.continuityDifference == 500)
        #expect(!row.closes)
        let finding = try #require(report.exceptions.first)
        #expect(finding.kind == .balanceNotContinuous)
        #expect(finding.objectID == "usd/payments/2026-11-20_2026-11-21")
        #expect(finding.expected == .amount(3_000))
        #expect(finding.actual == .amount(3_500))
    }

    @Test func withoutAnEarlierSnapshotContinuityIsNotComparedAndNoFailure() throws {
        var inputs = Self.workedExample()
        inputs.earlier = nil
        let report = Self.reconcile(inputs)
        let row = try #require(report.balance.first)
        #expect(row.continuityDifference == nil)
        #expect(row.closes)
        #expect(report.exceptions.isEmpty)
    }

    @Test func withoutASnapshotTheRangeHasActivityButNoBalances() throws {
        let inputs = BalanceInputs(dated: [Self.usd: ["charge": 1_000]], ending: nil, earlier: nil)
        let row = try #require(Self.reconcile(inputs).balance.first)
        #expect(row.activity == 1_000)
        #expect(row.startingBalance == nil && row.endingBalance == nil && row.stripeBalance == nil)
        #expect(!row.closes)
    }

    @Test func aCurrencyStripesBalanceDoesNotListCountsAsZero() throws {
        // Given a range with eur activity and a snapshot that lists usd only
        var inputs = Self.workedExample()
        let eur = BalanceKey(currency: .eur, balanceType: .payments)
        inputs.dated[eur] = ["charge": 700]
        // When reconciled: eur's balance at the read is zero, so it started at −7.00 (a wrong zero would show as
        // balance_not_continuous on the next run)
        let row = try #require(Self.reconcile(inputs).balance.first { $0.currency == .eur })
        #expect(row.stripeBalance == 0)
        #expect(row.endingBalance == 0)
        #expect(row.startingBalance == -700)
    }

    @Test func aBalanceTypeTheSnapshotDoesNotReportHasNoEndingBalance() throws {
        var inputs = Self.workedExample()
        let reserved = BalanceKey(currency: .usd, balanceType: .riskReserved)
        inputs.dated[reserved] = ["risk_reserved_funds": -300]
        let row = try #require(Self.reconcile(inputs).balance.first { $0.balanceType == .riskReserved })
        #expect(row.endingBalance == nil)
        #expect(row.activity == -300)
    }

    @Test func aBalanceThatHeldAndMovedNothingHasNoRow() {
        var inputs = Self.workedExample()
        inputs.ending?.snapshot.amounts[BalanceKey(currency: .jpy, balanceType: .issuing)] = 0
        #expect(Self.reconcile(inputs).balance.map(\.currency) == [.usd])
    }

    @Test func zeroDecimalAndThreeDecimalCurrenciesRollForwardInTheirMinorUnits() throws {
        let jpy = BalanceKey(currency: .jpy, balanceType: .payments)
        let bhd = BalanceKey(currency: .bhd, balanceType: .payments)
        let inputs = BalanceInputs(
            dated: [jpy: ["charge": 877], bhd: ["charge": 8_770, "payout": -8_770]],
            ending: BalanceAnchor(
                snapshot: Self.snapshot([jpy: 1_877, bhd: 1_000], at: Self.to), moment: Self.to, inTransit: [:],
                datedBetween: [:]),
            earlier: nil)
        let rows = Self.reconcile(inputs).balance
        #expect(rows.map(\.currency) == [.bhd, .jpy])
        #expect(rows.map(\.startingBalance) == [1_000, 1_000])
    }

    // MARK: Stripe's report

    static func published(
        starting: Int64 = 3_000, activity: Int64 = 15_000, payouts: Int64 = -6_000, ending: Int64 = 12_000,
        categories: [String: Int64] = ["charge": 14_000, "platform_earning": 1_000]
    ) -> StripeReportComparison {
        .published(
            balance: BalanceSummaryReport(
                currency: .usd, intervalStart: from, intervalEnd: to, starting: starting, activity: activity,
                payouts: payouts, ending: ending),
            activity: ActivitySummaryReport(
                currency: .usd, intervalStart: from, intervalEnd: to,
                rows: categories.mapValues { .init(count: 1, gross: $0, fee: 0, net: $0) }))
    }

    @Test func stripesReportAgreesToTheMinorUnit() throws {
        var inputs = Self.workedExample()
        inputs.stripeReports[.usd] = Self.published()
        let report = Self.reconcile(inputs)
        let row = try #require(report.balance.first)
        #expect(row.stripeReport == .agrees)
        #expect(row.stripeReportDifference == 0)
        #expect(report.exceptions.isEmpty)
    }

    @Test func aReportLineOffByOneMinorUnitIsAMismatchNamingReportCurrencyRangeAndLine() throws {
        // Given Stripe's ending balance a cent higher and its platform earnings a cent lower
        var inputs = Self.workedExample()
        inputs.stripeReports[.usd] = Self.published(
            ending: 12_001, categories: ["charge": 14_000, "platform_earning": 999])
        // When reconciled
        let report = Self.reconcile(inputs)
        // Then the row differs by −0.01 and each line is a finding, expected Stripe's, actual ours
        let row = try #require(report.balance.first)
        #expect(row.stripeReport == .differs)
        #expect(row.stripeReportDifference == -1)
        #expect(!row.closes)
        let found = report.exceptions.filter { $0.kind == .stripeReportMismatch }
        #expect(
            found.map(\.objectID).sorted() == [
                "balance.summary.1/usd/2026-11-20_2026-11-21/ending_balance",
                "balance_change_from_activity.summary.1/usd/2026-11-20_2026-11-21/platform_earning",
            ])
        let ending = try #require(found.first { $0.objectID.hasSuffix("ending_balance") })
        #expect(ending.expected == .amount(12_001))
        #expect(ending.actual == .amount(12_000))
    }

    @Test(
        "a report not had is a status, never a finding",
        arguments: [
            (StripeReportComparison.notYetPublished, StripeReportStatus.notYetPublished),
            (.notPermitted("403"), .notPermitted), (.unavailable("the run failed"), .notCompared),
        ])
    func aReportNotHadIsAStatus(comparison: StripeReportComparison, status: StripeReportStatus) throws {
        var inputs = Self.workedExample()
        inputs.stripeReports[.usd] = comparison
        let report = Self.reconcile(inputs)
        #expect(report.balance.first?.stripeReport == status)
        #expect(report.exceptions.isEmpty)
        #expect(report.balance.first?.closes == true)
    }

    @Test func anEarlierRangeComparedLateRaisesItsFindingsAndIsNamedStale() throws {
        // Given this run found the report of the day before published, a cent off
        var earlier = Self.workedExample()
        earlier.rangeName = "2026-11-19_2026-11-20"
        earlier.stripeReports[.usd] = Self.published(ending: 12_001)
        var input = ReconciliationInput(
            from: Self.to, to: Self.to + 86_400, asOf: Self.to + 90_000, skippedTransferGrace: 0)
        input.lateBalanceComparisons = [LateBalanceComparison(from: Self.from, to: Self.to, inputs: earlier)]
        // When the later range is reconciled
        let report = Reconciler.reconcile(input)
        // Then the finding names the earlier range, and that range is stale; no row of the earlier range is made
        #expect(report.exceptions.map(\.objectID) == ["balance.summary.1/usd/2026-11-19_2026-11-20/ending_balance"])
        #expect(report.staleReportRanges == [StaleReportRange(from: Self.from, to: Self.to)])
        #expect(report.balance.isEmpty)
    }
}
