import ReconCore
import Reconcile
import Testing

/// Skipped transfers (docs/RULES.md) and how asynchronous payments look before they settle.
@Suite struct SkippedTransferTests {
    struct OwedCase: Sendable, CustomTestStringConvertible {
        var style: Book.Style
        var owed: Int64
        var feeStyle: FeeStyle
        var testDescription: String { "\(style)" }
    }

    /// 10.00 usd, retained 1.23: owed = transfer_data[amount] 8.77; or 10.00 − application_fee_amount 1.23;
    /// or the whole 10.00.
    static let owed: [OwedCase] = [
        OwedCase(style: .transferAmount, owed: 877, feeStyle: .transferAmount),
        OwedCase(style: .applicationFee, owed: 877, feeStyle: .applicationFee),
        OwedCase(style: .fullTransfer, owed: 1_000, feeStyle: .fullTransfer),
    ]

    @Test(arguments: owed)
    func aSucceededDebitWhoseTransferStripeSkippedIsOwedToTheAccount(_ example: OwedCase) throws {
        // Given a bank debit that succeeded, whose PaymentIntent asked for a transfer that Stripe skipped
        var book = Book()
        let charge = book.charge(amount: 1_000, style: example.style, retained: 123, transferred: false)
        // When reconciled a day later
        let report = book.reconcile()
        // Then it is a skipped transfer with the amount owed
        let row = try #require(report.skippedTransfers.first)
        #expect(row.chargeID == charge)
        #expect(row.amountOwed == example.owed)
        #expect(row.intendedDestination == "acct_1")
        #expect(row.paymentIntentID == "pi_" + charge.dropFirst(3))
        #expect(row.status == .new)
        // and, as its PaymentIntent makes it a destination charge, it has a platform_fees row keeping everything
        let fee = try #require(report.platformFees.first)
        #expect(fee.destinationPlatformFee == 1_000)
        #expect(fee.feeStyle == example.feeStyle)
        #expect(fee.transferID == nil)
        let summary = try #require(report.summary.first)
        #expect(summary.skippedTransfers == 1)
        #expect(summary.amountOwed == example.owed)
        // and no exception: the missing fee and transfer are the skipped transfer's story
        #expect(report.exceptions.isEmpty)
    }

    struct TimingCase: Sendable, CustomTestStringConvertible {
        var name: String
        var status: String
        var age: Int64
        var skipped: Bool
        var hasFeeRow: Bool
        var testDescription: String { name }
    }

    static let timings: [TimingCase] = [
        TimingCase(name: "skipped, a day old", status: "succeeded", age: 86_400, skipped: true, hasFeeRow: true),
        TimingCase(
            name: "exactly the grace period old", status: "succeeded", age: 3_600, skipped: true, hasFeeRow: true),
        TimingCase(name: "inside the grace period", status: "succeeded", age: 3_599, skipped: false, hasFeeRow: true),
        TimingCase(name: "still pending", status: "pending", age: 86_400, skipped: false, hasFeeRow: false),
        TimingCase(name: "failed", status: "failed", age: 86_400, skipped: false, hasFeeRow: false),
    ]

    @Test(arguments: timings)
    func skippedVersusPendingVersusFailedVersusYoung(_ example: TimingCase) {
        // Given a charge without transfer, `age` seconds old at the run
        var book = Book()
        let created = Book.from + 600
        book.charge(
            style: .applicationFee, created: created, status: ChargeStatus(rawValue: example.status), transferred: false
        )
        book.input.asOf = created + example.age
        // When reconciled
        let report = book.reconcile()
        // Then only a succeeded charge past the grace period is skipped
        #expect(report.skippedTransfers.count == (example.skipped ? 1 : 0))
        #expect(report.platformFees.count == (example.hasFeeRow ? 1 : 0))
        #expect(report.exceptions.isEmpty)
    }

    @Test func aYoungChargeWithoutBalanceTransactionIsNotAnExceptionYet() {
        // Given an asynchronous-capture charge 10 minutes old with no transfer, fee or balance transaction yet
        var book = Book()
        let created = Book.to - 600
        book.charge(style: .transferAmount, created: created, transferred: false, withBalanceTransaction: false)
        book.input.asOf = Book.to
        // When reconciled
        let report = book.reconcile()
        // Then nothing is flagged, and its row has no Stripe fee yet (unknown, not zero)
        #expect(report.exceptions.isEmpty)
        #expect(report.skippedTransfers.isEmpty)
        #expect(report.platformFees.first?.stripeFee == nil)
        #expect(report.platformFees.first?.platformNet == nil)
    }
}
