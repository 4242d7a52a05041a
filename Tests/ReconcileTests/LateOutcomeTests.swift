import ReconCore
import Reconcile
import Testing

/// Late outcomes (docs/RULES.md, "Late outcomes are judged in the run that sees them"): an object of the look-back
/// window whose outcome arrived since is judged by the run that sees it, with its own `created_utc`, but gets no
/// `platform_fees` or `payouts` row; and the Summary carries the window's pending charges.
@Suite struct LateOutcomeTests {
    /// A charge of the day before the range.
    static let yesterday = Book.from - Book.day + 3_600

    @Test func aChargeOfAnEarlierDayThatSettledWithItsTransferSkippedIsASkippedTransferOfThisRun() throws {
        // Given a bank debit of the day before the range, pending last night, that succeeded with its transfer
        // skipped: transfer_data[amount] 8.77 of 10.00 asked on the PaymentIntent
        var book = Book()
        let charge = book.charge(
            amount: 1_000, style: .transferAmount, retained: 123, created: Self.yesterday, transferred: false)
        book.input.lateOutcomes = JudgedObjects(.charge, [charge])
        // When the range is reconciled with it as a late outcome
        let report = book.reconcile()
        // Then it is a skipped transfer of this run, owed 8.77, with its own creation time before the range
        let row = try #require(report.skippedTransfers.first)
        #expect(row.chargeID == charge)
        #expect(row.created == Self.yesterday)
        #expect(row.amountOwed == 877)
        let summary = try #require(report.summary.first)
        #expect(summary.skippedTransfers == 1)
        #expect(summary.amountOwed == 877)
        // but no platform_fees row, and no destination charge counted: those are its own day's
        #expect(report.platformFees.isEmpty)
        #expect(summary.destinationCharges == 0)
        #expect(summary.gross == 0)
        // and the connected account's statement owes it
        let statement = try #require(report.connectedAccounts.first)
        #expect(statement.skippedTransfers == 1)
        #expect(statement.amountOwed == 877)
    }

    @Test func aChargeOfAnEarlierDayThatIsNotALateOutcomeIsNotJudged() {
        // Given the same charge, but no read found its outcome changed
        var book = Book()
        book.charge(amount: 1_000, style: .transferAmount, retained: 123, created: Self.yesterday, transferred: false)
        // When the range is reconciled
        let report = book.reconcile()
        // Then nothing is reported about it
        #expect(report.skippedTransfers.isEmpty)
        #expect(report.summary.isEmpty)
    }

    @Test func aRefundOfAnEarlierDayThatFailedAfterReversingTheTransferIsOwedBack() throws {
        // Given a 10.00 charge of the day before, refunded 4.00 with reverse_transfer, and the refund failed since
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .applicationFee, retained: 123, created: Self.yesterday)
        let refund = book.refund(charge, amount: 400, reversal: 400, created: Self.yesterday + 600)
        book.failRefund(refund, at: Book.from + 60, reason: "expired_or_canceled_card")
        book.input.lateOutcomes = JudgedObjects(.refund, [refund])
        // When the range is reconciled with the refund as a late outcome
        let report = book.reconcile()
        // Then the reversal's 4.00 is owed back to the account, as a finding of this run about the refund
        let row = try #require(report.exceptions.first { $0.kind == .failedRefundNotRetransferred })
        #expect(row.objectID == refund)
        #expect(row.expected == .amount(400))
        #expect(row.subject == FindingSubject(id: refund, created: Self.yesterday + 600))
        #expect(report.platformFees.isEmpty)
    }

    @Test func aPayoutOfAnEarlierDayThatFailedIsAFindingButNotAPayoutRow() throws {
        // Given an automatic payout of the day before that failed since it arrived
        var book = Book()
        book.input.payouts = [
            PayoutFacts(
                id: "po_1", created: Self.yesterday, currency: .usd, amount: 5_000, arrivalDate: Book.from,
                status: .failed, automatic: true, balanceTransactionID: nil, failureBalanceTransactionID: nil,
                failureCode: "account_closed", livemode: false, reconciliationStatus: .inProgress)
        ]
        book.input.lateOutcomes = JudgedObjects(.payout, ["po_1"])
        // When reconciled
        let report = book.reconcile()
        // Then it is payout_failed, and payouts.csv keeps to the range's payouts
        #expect(report.exceptions.map(\.kind) == [.payoutFailed])
        #expect(report.payouts.isEmpty)
        #expect(report.payoutTransactions.isEmpty)
    }

    @Test func theSummaryCarriesTheWindowsPendingChargesPerCurrency() throws {
        // Given the look-back window holds 2 pending usd charges (10.00 + 5.50) and 1 pending jpy charge (1,500)
        var book = Book()
        book.input.pendingCharges = [
            PendingChargeTotal(currency: .jpy, count: 1, amount: 1_500),
            PendingChargeTotal(currency: .usd, count: 2, amount: 1_550),
        ]
        book.charge(amount: 1_000, currency: .usd)
        // When reconciled
        let report = book.reconcile()
        // Then each currency's summary row says so; jpy has a row of its own with nothing else in it
        let usd = try #require(report.summary.first { $0.currency == .usd })
        #expect(usd.pendingCharges == 2)
        #expect(usd.pendingAmount == 1_550)
        #expect(usd.destinationCharges == 1)
        let jpy = try #require(report.summary.first { $0.currency == .jpy })
        #expect(jpy.pendingCharges == 1)
        #expect(jpy.pendingAmount == 1_500)
        #expect(jpy.destinationCharges == 0)
    }

    @Test func aCheckOfAChargesTransferNamesTheChargeAsItsSubject() throws {
        // Given a charge whose transfer sent 9.00 of the 10.00 asked
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer)
        let transfer = book.transferID(of: charge)
        let index = try #require(book.input.transfers.firstIndex { $0.id == transfer })
        book.input.transfers[index].amount = 900
        // When reconciled
        let report = book.reconcile()
        // Then the mismatch is about the transfer, raised by judging the charge
        let row = try #require(report.exceptions.first { $0.kind == .transferAmountMismatch })
        #expect(row.objectID == transfer)
        #expect(row.subject == FindingSubject(id: charge, created: Book.from + 3_600))
    }
}
