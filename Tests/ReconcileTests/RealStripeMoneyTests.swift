import ReconCore
import Reconcile
import Testing

/// The money shapes of a real Connect platform (docs/RULES.md–§5): cross-border fees that settle in the connected
/// account's currency, payouts Stripe is still reconciling, refunds that fail after reversing the transfer, balance
/// types, and parts of a charge that arrive after it.
@Suite struct RealStripeMoneyTests {
    /// usd → aud at 1.52 (`123` cents → `187` aud cents).
    static let aud = Book.Settlement(currency: .aud, rateMillionths: 1_520_000)
    /// usd → jpy at 1.5 yen per cent (`123` cents → `185` yen).
    static let jpy = Book.Settlement(currency: .jpy, rateMillionths: 1_500_000)

    private func row(_ report: ReconciliationReport, _ chargeID: String) throws -> PlatformFeeRow {
        try #require(report.platformFees.first { $0.chargeID == chargeID })
    }

    // MARK: Cross-border fees

    @Test func aCrossBorderFeeCountsInTheChargesCurrencyAtStripesRate() throws {
        // Given a US platform's 10.00 usd charge to an Australian seller, application_fee_amount 1.23 usd: the
        // transfer is 10.00 usd, the fee settles as 1.87 aud
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .applicationFee, retained: 123, feeIn: Self.aud)
        // When reconciled
        let report = book.reconcile()
        let row = try row(report, charge)
        // Then the DPF is 1.23 usd (187 × 123 / 187), the fee's own figures stay in aud, and no mismatch is raised
        #expect(row.destinationPlatformFee == 123)
        #expect(row.applicationFeeCurrency == .aud)
        #expect(row.applicationFeeAmount == 187)
        #expect(row.applicationFeeKept == 123)
        #expect(report.exceptions.isEmpty)
        // And the platform net is left empty: its balance transactions settle in usd and aud, and no rate ties them
        #expect(row.platformNet == nil)
        #expect(row.settlementCurrency == .usd)
        // And the statement adds the fee in usd, the charge's currency
        #expect(report.connectedAccounts.first?.applicationFees == 123)
        #expect(report.summary.first { $0.currency == .usd }?.destinationPlatformFee == 123)
    }

    @Test func aCrossBorderFeeRefundedInPartCountsWhatIsKeptConverted() throws {
        // Given the same charge half refunded with reverse_transfer and half the fee refunded (94 of 187 aud)
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .applicationFee, retained: 123, feeIn: Self.aud)
        book.refund(charge, amount: 500, reversal: 500, feeRefund: 94)
        // When reconciled
        let row = try row(book.reconcile(), charge)
        // Then the kept 93 aud count round_half_up(123 × 93 / 187) = round(61.17) = 61 cents
        #expect(row.applicationFeeRefunded == 94)
        #expect(row.applicationFeeKept == 61)
        let expected: Int64 = (1_000 - 500) - (1_000 - 500) + 61
        #expect(row.destinationPlatformFee == expected)
    }

    struct Rounding: Sendable, CustomTestStringConvertible {
        var asked: Int64
        var feeAmount: Int64
        var refunded: Int64
        var expected: Int64
        var testDescription: String { "\(asked) × (\(feeAmount) − \(refunded)) / \(feeAmount) → \(expected)" }
    }

    @Test(arguments: [
        // 62.5 rounds up, 62.25 down, 62.75 up; nothing kept is zero; everything kept is what was asked
        Rounding(asked: 125, feeAmount: 4, refunded: 2, expected: 63),
        Rounding(asked: 249, feeAmount: 4, refunded: 3, expected: 62),
        Rounding(asked: 251, feeAmount: 4, refunded: 1, expected: 188),
        Rounding(asked: 123, feeAmount: 187, refunded: 187, expected: 0),
        Rounding(asked: 99_999_999, feeAmount: 15_000_000_000, refunded: 0, expected: 99_999_999),
    ])
    func theConversionRoundsHalfUpInIntegers(_ rounding: Rounding) throws {
        // Given a usd charge whose fee (in jpy) is `feeAmount`, `refunded` of it refunded
        var book = Book()
        let charge = book.charge(amount: 100_000_000, style: .applicationFee, retained: rounding.asked)
        let feeID = try #require(book.charge(charge).applicationFeeID)
        let f = try #require(book.input.applicationFees.firstIndex { $0.id == feeID })
        book.input.applicationFees[f].currency = .jpy
        book.input.applicationFees[f].amount = rounding.feeAmount
        book.input.applicationFees[f].amountRefunded = rounding.refunded
        // When reconciled, then the kept fee in usd is rounded half up
        #expect(try row(book.reconcile(), charge).applicationFeeKept == rounding.expected)
    }

    @Test func aJPYFeeOnAUSDChargeKeepsItsOwnCurrency() throws {
        // Given a usd charge to a seller settling in jpy: 1.23 usd asked, 185 yen collected
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .applicationFee, retained: 123, feeIn: Self.jpy)
        // When reconciled
        let row = try row(book.reconcile(), charge)
        // Then the fee is 185 jpy (no decimals) and counts 1.23 usd
        #expect(row.applicationFeeCurrency == .jpy)
        #expect(row.applicationFeeAmount == 185)
        #expect(row.destinationPlatformFee == 123)
    }

    @Test func aFeeInTheChargesCurrencyOfAnotherAmountIsStillAMismatch() throws {
        // Given a same-currency fee of 1.00 where 1.23 was asked
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .applicationFee, retained: 123)
        let feeID = try #require(book.charge(charge).applicationFeeID)
        let f = try #require(book.input.applicationFees.firstIndex { $0.id == feeID })
        book.input.applicationFees[f].amount = 100
        // Then it is an application_fee_amount_mismatch, as before
        #expect(book.reconcile().exceptions.map(\.kind) == [.applicationFeeAmountMismatch])
    }

    @Test func aCrossBorderFeeWithoutAnAskedAmountIsUnconvertibleAndCountsZero() throws {
        // Given a fee of 1.87 aud set by Stripe's platform pricing tools: neither the charge nor its PaymentIntent
        // names application_fee_amount
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .applicationFee, retained: 123, feeIn: Self.aud)
        let c = try #require(book.input.charges.firstIndex { $0.id == charge })
        book.input.charges[c].applicationFeeAmount = nil
        let p = try #require(book.input.paymentIntents.firstIndex { $0.id == book.charge(charge).paymentIntentID })
        book.input.paymentIntents[p].applicationFeeAmount = nil
        // When reconciled
        let report = book.reconcile()
        // Then the fee counts zero and is reported, in its own currency
        let row = try row(report, charge)
        #expect(row.destinationPlatformFee == 0)
        #expect(row.applicationFeeKept == 0)
        let exception = try #require(report.exceptions.first)
        #expect(report.exceptions.count == 1)
        #expect(exception.kind == .feeCurrencyUnconvertible)
        #expect(exception.objectID == row.applicationFeeID)
        #expect(exception.relatedID == charge)
        #expect(exception.currency == .aud)
        #expect(exception.actual == .amount(187))
    }

    @Test func aCrossBorderFeeOfZeroIsUnconvertible() throws {
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .applicationFee, retained: 123, feeIn: Self.aud)
        let feeID = try #require(book.charge(charge).applicationFeeID)
        let f = try #require(book.input.applicationFees.firstIndex { $0.id == feeID })
        book.input.applicationFees[f].amount = 0
        #expect(book.reconcile().exceptions.map(\.kind) == [.feeCurrencyUnconvertible])
    }

    // MARK: Failed refunds

    @Test func aRefundThatFailsAfterReversingTheTransferIsOwedToTheAccount() throws {
        // Given the seed's application-fee charge refunded in full with reverse_transfer, and the refund failing
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .applicationFee, retained: 123, stripeFee: 59)
        let refund = book.refund(charge, amount: 1_000, reversal: 1_000)
        book.failRefund(refund)
        // When reconciled
        let report = book.reconcile()
        // Then the reversal's 10.00 is owed back to acct_1, and no refund_not_recovered is raised
        let exception = try #require(report.exceptions.first)
        #expect(report.exceptions.count == 1)
        #expect(exception.kind == .failedRefundNotRetransferred)
        #expect(exception.objectID == refund)
        #expect(exception.relatedID == book.input.refunds.first?.transferReversalID)
        #expect(exception.expected == .amount(1_000))
        #expect(exception.actual == .amount(0))
        #expect(exception.message.contains("acct_1"))
        // And the DPF rises by the reversal (Stripe's amount_refunded no longer counts the refund): honest
        let row = try row(report, charge)
        #expect(row.amountRefunded == 0)
        let expected: Int64 = 1_000 - 0 + 123
        #expect(row.destinationPlatformFee == expected)
        // And the platform net counts the refund_failure balance transaction: 941 − 1000 + 123 − 1000 + 1000 + 1000
        #expect(row.platformNet == 1_064)
    }

    @Test func aFailedRefundThatReversedNothingIsNoFinding() throws {
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .transferAmount, retained: 123)
        let refund = book.refund(charge, amount: 400)
        book.failRefund(refund)
        #expect(book.reconcile().exceptions.isEmpty)
    }

    // MARK: Balance types

    @Test func theLedgerAddsEachBalanceTypeApart() throws {
        // Given refunds debited from the payments balance and from the refund and dispute prefunding balance, an
        // issuing transaction, and a transaction without balance_type (an older API version)
        var book = Book()
        let at = Book.from + 60
        book.balanceTransaction(
            created: at, currency: .usd, amount: -500, fee: 0, type: "refund", category: "refund", source: "re_a")
        book.balanceTransaction(
            created: at, currency: .usd, amount: -300, fee: 0, type: "refund", category: "refund", source: "re_b",
            balanceType: "refund_and_dispute_prefunding")
        book.balanceTransaction(
            created: at, currency: .usd, amount: -200, fee: 0, type: "refund", category: "refund", source: "re_c",
            balanceType: nil)
        book.balanceTransaction(
            created: at, currency: .usd, amount: -700, fee: 0, type: "issuing_transaction",
            category: "issuing_transaction", source: "ipi_1", balanceType: "issuing")
        // When reconciled
        let ledger = book.reconcile().ledger
        // Then each balance type has rows of its own, `payments` where Stripe gave none
        #expect(
            ledger.map { "\($0.balanceType)/\($0.reportingCategory)/\($0.count)/\($0.net)" } == [
                "issuing/issuing_transaction/1/-700", "payments/refund/2/-700",
                "refund_and_dispute_prefunding/refund/1/-300",
            ])
    }

    // MARK: Payouts still being reconciled

    @Test func aPayoutStillBeingReconciledIsShownButNotJudged() throws {
        // Given a payout of 11.00 that Stripe is still reconciling: ?payout= listed only part of what it paid out
        var payout = PayoutTests.Payout("po_1", amount: 1_100, paidOut: [500, 350, 150])
        payout.facts.reconciliationStatus = "in_progress"
        payout.links = Array(payout.links.prefix(2))
        // When reconciled
        let report = PayoutTests.reconcile([payout])
        // Then its row shows it with empty figures, its partial list makes no payout_transactions rows and no
        // payout_mismatch is raised
        let row = try #require(report.payouts.first)
        #expect(row.reconciliationStatus == "in_progress")
        #expect(row.balanceTransactions == nil)
        #expect(row.netOfTransactions == nil)
        #expect(row.difference == nil)
        #expect(report.payoutTransactions.isEmpty)
        #expect(report.exceptions.isEmpty)
    }

    @Test func theSamePayoutIsJudgedOnceCompleted() throws {
        // Given the same payout once Stripe completed it, every transaction listed
        var payout = PayoutTests.Payout("po_1", amount: 1_100, paidOut: [500, 350, 150])
        payout.facts.reconciliationStatus = "completed"
        // When reconciled, then it is judged: 11.00 sent, 10.00 paid out
        let report = PayoutTests.reconcile([payout])
        #expect(report.payouts.first?.difference == 100)
        #expect(report.payoutTransactions.count == 3)
        #expect(report.exceptions.map(\.kind) == [.payoutMismatch])
    }

    @Test func aFailedPayoutIsReportedWhileStillBeingReconciled() throws {
        var payout = PayoutTests.Payout("po_1", amount: 1_000, paidOut: [1_000], status: "failed")
        payout.facts.reconciliationStatus = "in_progress"
        #expect(PayoutTests.reconcile([payout]).exceptions.map(\.kind) == [.payoutFailed])
    }

    // MARK: Parts that arrive later

    /// A succeeded application-fee charge whose parts Stripe has not attached or booked yet: no balance transaction
    /// for the charge, no application fee although one was asked for, a transfer and a fee of another charge
    /// without their balance transactions.
    private func youngBook() -> Book {
        var book = Book()
        let created = Book.to - 600
        book.charge(
            "ch_young", amount: 1_000, style: .applicationFee, retained: 123, created: created, transferred: false,
            withBalanceTransaction: false)
        let c = book.input.charges.count - 1
        book.input.charges[c].applicationFeeAmount = 123
        book.input.charges[c].destinationAccountID = "acct_1"
        let transfer = book.transfer(
            amount: 1_000, source: "ch_young", created: created + 60, withBalanceTransaction: false)
        book.input.charges[c].transferID = transfer
        book.applicationFee(
            amount: 123, currency: .usd, charge: "ch_young2", account: "acct_1", created: created + 60,
            settlement: Book.Settlement(currency: .usd), withBalanceTransaction: false)
        book.input.asOf = Book.to
        return book
    }

    @Test func noMissingPartIsAnExceptionInsideTheGracePeriod() throws {
        // Given a charge ten minutes old whose balance transaction and fee are not there yet, and a transfer and a
        // fee a minute younger without their balance transactions
        let book = youngBook()
        // When reconciled inside the one-hour grace period, then nothing is reported of any kind
        let report = book.reconcile()
        #expect(report.exceptions.isEmpty)
        #expect(report.skippedTransfers.isEmpty)
    }

    @Test func theSameMissingPartsAreExceptionsOnceTheGracePeriodHasPassed() throws {
        // Given the same objects reconciled two hours later
        var book = youngBook()
        book.input.asOf = Book.to + 7_200
        // Then each missing part is reported
        let kinds = book.reconcile().exceptions.map { "\($0.kind.rawValue) \($0.objectID)" }.sorted()
        #expect(kinds.contains("application_fee_missing ch_young"))
        #expect(kinds.contains("missing_balance_transaction ch_young"))
        #expect(kinds.filter { $0.hasPrefix("missing_balance_transaction tr_") }.count == 1)
        #expect(kinds.filter { $0.hasPrefix("missing_balance_transaction fee_") }.count == 1)
    }
}
