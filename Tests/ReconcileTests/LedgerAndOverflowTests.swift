import ReconCore
import Reconcile
import Testing

/// The ledger of the range's balance transactions, and amounts at the edges of `Int64`.
@Suite struct LedgerAndOverflowTests {
    @Test func theLedgerGroupsTheRangesBalanceTransactionsByCurrencyAndCategory() {
        // Given two application-fee charges (one refunded with reversal and fee refund) and a BT after the range
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .applicationFee, retained: 123, stripeFee: 59)
        book.charge(amount: 2_000, style: .applicationFee, retained: 200, stripeFee: 88)
        book.refund(charge, amount: 1_000, reversal: 1_000, feeRefund: 123)
        book.dispute(charge, status: "lost", amount: 500, created: Book.to + 60)
        // When reconciled
        let ledger = book.reconcile().ledger
        // Then one row per category, sorted, with Σ amount, Σ fee, Σ net; the dispute after the range is absent
        let expected = [
            LedgerRow(currency: .usd, reportingCategory: "charge", count: 2, gross: 3_000, fee: 147, net: 2_853),
            LedgerRow(currency: .usd, reportingCategory: "platform_earning", count: 2, gross: 323, fee: 0, net: 323),
            LedgerRow(
                currency: .usd, reportingCategory: "platform_earning_refund", count: 1, gross: -123, fee: 0, net: -123),
            LedgerRow(currency: .usd, reportingCategory: "refund", count: 1, gross: -1_000, fee: 0, net: -1_000),
            LedgerRow(currency: .usd, reportingCategory: "transfer", count: 2, gross: -3_000, fee: 0, net: -3_000),
            LedgerRow(
                currency: .usd, reportingCategory: "transfer_reversal", count: 1, gross: 1_000, fee: 0, net: 1_000),
        ]
        #expect(ledger == expected)
    }

    @Test func aDuplicatedObjectInTheInputIsCountedOnce() {
        var book = Book()
        book.charge(style: .applicationFee)
        book.input.charges += book.input.charges
        book.input.balanceTransactions += book.input.balanceTransactions
        let report = book.reconcile()
        #expect(report.platformFees.count == 1)
        #expect(report.ledger.first { $0.reportingCategory == "charge" }?.count == 1)
    }

    @Test func aDestinationPlatformFeeBeyondInt64IsAnExceptionNotACrash() throws {
        // Given a charge whose captured amount is Int64.max and whose refunded amount is negative (corrupt data)
        var book = Book()
        let charge = book.charge(style: .fullTransfer)
        book.input.charges[0].amountCaptured = .max
        book.input.charges[0].amountRefunded = -1
        // When reconciled
        let report = book.reconcile()
        // Then the charge has no row and an amount_overflow exception says why (next to the transfer, which no
        // longer matches the captured amount)
        #expect(report.platformFees.isEmpty)
        let row = try #require(report.exceptions.first { $0.kind == .amountOverflow })
        #expect(row.objectID == charge)
        #expect(
            report.exceptions.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [
                .amountOverflow, .transferAmountMismatch,
            ])
    }

    @Test func totalsBeyondInt64LeaveTheOffendingAmountOutAndSaySo() {
        // Given two charges of Int64.max / 2 + 1 each, whose gross does not fit in a total
        var book = Book()
        let half = Int64.max / 2 + 1
        book.charge("ch_a", amount: half, style: .fullTransfer, stripeFee: 0, created: Book.from + 10)
        book.charge("ch_b", amount: half, style: .fullTransfer, stripeFee: 0, created: Book.from + 20)
        // When reconciled
        let report = book.reconcile()
        // Then both rows are there, the total holds the first, and amount_overflow names the second
        #expect(report.platformFees.count == 2)
        #expect(report.summary.first?.gross == half)
        #expect(report.exceptions.contains { $0.kind == .amountOverflow && $0.objectID == "ch_b" })
        #expect(report.ledger.first { $0.reportingCategory == "charge" }?.gross == half)
    }

    @Test(arguments: [Int64.max, Int64.min, Int64.min + 1])
    func extremeAmountsEverywhereNeverCrash(_ extreme: Int64) {
        // Given objects whose every amount is at an edge of Int64
        var book = Book()
        let charge = book.charge(style: .applicationFee, transferred: true)
        book.refund(charge, amount: 100, reversal: 100, feeRefund: 10)
        book.dispute(charge, status: "lost")
        book.charge(style: .transferAmount, transferred: false)
        for index in book.input.charges.indices {
            book.input.charges[index].amount = extreme
            book.input.charges[index].amountCaptured = extreme
        }
        for index in book.input.transfers.indices { book.input.transfers[index].amount = extreme }
        for index in book.input.transferReversals.indices { book.input.transferReversals[index].amount = extreme }
        for index in book.input.applicationFees.indices { book.input.applicationFees[index].amount = extreme }
        for index in book.input.disputes.indices { book.input.disputes[index].amount = extreme }
        for index in book.input.paymentIntents.indices {
            book.input.paymentIntents[index].applicationFeeAmount = ~extreme
        }
        for index in book.input.balanceTransactions.indices {
            book.input.balanceTransactions[index].amount = extreme
            book.input.balanceTransactions[index].net = extreme
            book.input.balanceTransactions[index].fee = extreme
        }
        book.input.asOf = .min
        // When reconciled, then it returns (overflows become exceptions)
        let report = book.reconcile()
        #expect(report.summary.count <= 1)
        #expect(report.exceptions.allSatisfy { !$0.message.isEmpty })
    }
}
