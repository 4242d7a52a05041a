import ReconCore
import Reconcile
import Testing

/// The Destination Platform Fee, the Stripe fee and the platform net of docs/RULES.md, with hand-computed numbers.
@Suite struct DestinationPlatformFeeTests {
    private func row(_ book: Book, _ chargeID: String) throws -> PlatformFeeRow {
        try #require(book.reconcile().platformFees.first { $0.chargeID == chargeID })
    }

    @Test func theSeedsApplicationFeeChargeKeepsOneTwentyThree() throws {
        // Given 10.00 usd with application_fee_amount 1.23: transfer 10.00, application fee 1.23
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .applicationFee, retained: 123, stripeFee: 59)
        // When reconciled
        let row = try row(book, charge)
        // Then DPF 1.23, Stripe fee 0.59, platform net 9.41 − 10.00 + 1.23 = 0.64
        #expect(row.feeStyle == .applicationFee)
        #expect(row.transferAmount == 1_000)
        #expect(row.applicationFeeAmount == 123)
        #expect(row.destinationPlatformFee == 123)
        #expect(row.stripeFee == 59)
        #expect(row.settlementCurrency == .usd)
        #expect(row.platformNet == 64)
        #expect(row.destinationAccount == "acct_1")
    }

    @Test func theSeedsTransferAmountChargeKeepsOneTwentyThreeAndNetsSixtyFour() throws {
        // Given 10.00 usd with transfer_data[amount] 8.77: charge BT 1000 fee 59 net 941, transfer BT −877
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .transferAmount, retained: 123, stripeFee: 59)
        // When reconciled
        let row = try row(book, charge)
        // Then DPF 1.23 and platform net 9.41 − 8.77 = 0.64, with no application fee
        #expect(row.feeStyle == .transferAmount)
        #expect(row.transferAmount == 877)
        #expect(row.applicationFeeID == nil)
        #expect(row.destinationPlatformFee == 123)
        #expect(row.stripeFee == 59)
        #expect(row.platformNet == 64)
    }

    @Test func aFullTransferWithoutRefundsKeepsNothing() throws {
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer, stripeFee: 59)
        let row = try row(book, charge)
        #expect(row.feeStyle == .fullTransfer)
        #expect(row.destinationPlatformFee == 0)
        #expect(row.platformNet == 941 - 1_000)
    }

    @Test func aFullRefundThatReversesTheTransferAndRefundsTheFeeKeepsZero() throws {
        // Given the seed's application-fee charge fully refunded with reverse_transfer and refund_application_fee
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .applicationFee, retained: 123, stripeFee: 59)
        book.refund(charge, amount: 1_000, reversal: 1_000, feeRefund: 123)
        // When reconciled
        let row = try row(book, charge)
        // Then DPF = (1000 − 1000) − (1000 − 1000) + (123 − 123) = 0, and the platform is out only Stripe's fee
        #expect(row.amountRefunded == 1_000)
        #expect(row.transferReversed == 1_000)
        #expect(row.applicationFeeRefunded == 123)
        #expect(row.destinationPlatformFee == 0)
        #expect(row.platformNet == -59)
    }

    @Test func aFullRefundWithoutReverseTransferCostsThePlatformTheTransfer() throws {
        // Given the seed's transfer-amount charge fully refunded without reverse_transfer
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .transferAmount, retained: 123, stripeFee: 59)
        book.refund(charge, amount: 1_000)
        // When reconciled
        let row = try row(book, charge)
        // Then DPF = 0 − 877 = −8.77: honest, not clamped
        #expect(row.destinationPlatformFee == -877)
        #expect(row.platformNet == 941 - 877 - 1_000)
    }

    struct PartialRefund: Sendable, CustomTestStringConvertible {
        var style: Book.Style
        var refund: Int64
        var reversal: Int64?
        var feeRefund: Int64?
        var dpf: Int64
        var net: Int64
        var testDescription: String { "\(style) refund \(refund) reversal \(reversal ?? 0) fee \(feeRefund ?? 0)" }
    }

    /// 10.00 usd, retained 1.23, Stripe fee 0.59 (charge BT net 941); 4.00 refunded (3.00 for full transfer).
    /// Proportional reversals: 1000 × 0.4 = 400; 877 × 0.4 = 350.8 → 351; fee 123 × 0.4 = 49.2 → 49.
    static let partialRefunds: [PartialRefund] = [
        // (1000 − 400) − (1000 − 400) + (123 − 49) = 74; net 941 − 1000 + 123 − 400 + 400 − 49 = 15
        PartialRefund(style: .applicationFee, refund: 400, reversal: 400, feeRefund: 49, dpf: 74, net: 15),
        // the fee is kept: 600 − 600 + 123 = 123; net 941 − 1000 + 123 − 400 + 400 = 64
        PartialRefund(style: .applicationFee, refund: 400, reversal: 400, feeRefund: nil, dpf: 123, net: 64),
        // no reversal: 600 − 1000 + 123 = −277; net 941 − 1000 + 123 − 400 = −336
        PartialRefund(style: .applicationFee, refund: 400, reversal: nil, feeRefund: nil, dpf: -277, net: -336),
        // 600 − (877 − 351) = 74; net 941 − 877 − 400 + 351 = 15
        PartialRefund(style: .transferAmount, refund: 400, reversal: 351, feeRefund: nil, dpf: 74, net: 15),
        // 600 − 877 = −277; net 941 − 877 − 400 = −336
        PartialRefund(style: .transferAmount, refund: 400, reversal: nil, feeRefund: nil, dpf: -277, net: -336),
        // 700 − 700 = 0; net 941 − 1000 − 300 + 300 = −59
        PartialRefund(style: .fullTransfer, refund: 300, reversal: 300, feeRefund: nil, dpf: 0, net: -59),
        // 700 − 1000 = −300; net 941 − 1000 − 300 = −359
        PartialRefund(style: .fullTransfer, refund: 300, reversal: nil, feeRefund: nil, dpf: -300, net: -359),
    ]

    @Test(arguments: partialRefunds)
    func aPartialRefundLeavesTheProportionalFee(_ example: PartialRefund) throws {
        // Given a 10.00 usd charge partly refunded
        var book = Book()
        let charge = book.charge(amount: 1_000, style: example.style, retained: 123, stripeFee: 59)
        book.refund(charge, amount: example.refund, reversal: example.reversal, feeRefund: example.feeRefund)
        // When reconciled
        let row = try row(book, charge)
        // Then the fee and the net are the hand-computed ones
        #expect(row.destinationPlatformFee == example.dpf)
        #expect(row.platformNet == example.net)
        #expect(row.stripeFee == 59)
    }

    @Test func aTransferWithTwelveReversalsCountsEveryOne() throws {
        // Given 600.00 usd with a 60.00 application fee and 12 refunds of 24.00 that each reverse 24.00 and refund
        // 2.40 of the fee
        var book = Book()
        let charge = book.charge(amount: 60_000, style: .applicationFee, retained: 6_000, stripeFee: 1_770)
        for k in 0..<12 {
            book.refund(
                charge, amount: 2_400, reversal: 2_400, feeRefund: 240, created: Book.from + 7_200 + Int64(k) * 60)
        }
        // When reconciled
        let row = try row(book, charge)
        // Then DPF = (60000 − 28800) − (60000 − 28800) + (6000 − 2880) = 3120
        #expect(book.input.transferReversals.count == 12)
        #expect(row.amountRefunded == 28_800)
        #expect(row.transferReversed == 28_800)
        #expect(row.applicationFeeRefunded == 2_880)
        #expect(row.destinationPlatformFee == 3_120)
        // and the net adds all 12 reversal balance transactions: 3120 − 1770
        #expect(row.platformNet == Int64(3_120 - 1_770))
    }

    @Test func aDisputeCountsInThePlatformNetWhenEverItWasCreated() throws {
        // Given the seed's transfer-amount charge, lost in a dispute created after the range
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .transferAmount, retained: 123, stripeFee: 59)
        book.dispute(charge, status: "lost", created: Book.to + 5 * Book.day)
        // When reconciled
        let row = try row(book, charge)
        // Then the withdrawal (−1000, fee 15.00) is in the net: 64 − 1000 − 1500
        #expect(row.platformNet == 64 - 1_000 - 1_500)
        #expect(row.destinationPlatformFee == 123)
    }

    @Test func onlySucceededCapturedDestinationChargesCreatedInTheRangeHaveARow() {
        // Given a destination charge in the range, one before it, a plain charge, a pending and a failed debit
        var book = Book()
        let inRange = book.charge(style: .fullTransfer)
        book.charge(style: .fullTransfer, created: Book.from - 1)
        book.charge(style: .fullTransfer, created: Book.to)
        book.charge(style: .plain)
        book.charge(style: .applicationFee, status: "pending", transferred: false)
        book.charge(style: .applicationFee, status: "failed", transferred: false)
        // When reconciled
        let rows = book.reconcile().platformFees
        // Then only the first has a row
        #expect(rows.map(\.chargeID) == [inRange])
    }

    @Test func rowsAreSortedByCreationThenIdWhateverTheInputOrder() {
        // Given charges created out of id order
        var book = Book()
        book.charge("ch_b", created: Book.from + 500)
        book.charge("ch_c", created: Book.from + 100)
        book.charge("ch_a", created: Book.from + 500)
        // When reconciled forwards and with the input reversed
        let forwards = book.reconcile()
        book.input.charges.reverse()
        book.input.balanceTransactions.reverse()
        book.input.transfers.reverse()
        let backwards = book.reconcile()
        // Then the order is by created, then id, and identical
        #expect(forwards.platformFees.map(\.chargeID) == ["ch_c", "ch_a", "ch_b"])
        #expect(forwards == backwards)
    }
}
