import ReconCore
import Reconcile
import Testing

/// Partial and multiple captures (docs/RULES.md): what was captured counts, never the authorisation, and the refund
/// of an uncaptured remainder is no refund.
@Suite struct CaptureTests {
    /// Captures `captured` of charge `id` (its transfer and fee already capped by the caller when asked).
    static func capture(_ book: inout Book, _ id: String, captured: Int64, final: Bool = true) throws {
        let index = try #require(book.input.charges.firstIndex { $0.id == id })
        book.input.charges[index].amountCaptured = captured
        book.input.charges[index].captured = final
    }

    @Test func aLegacyPartialCaptureCountsAsIfOnlyTheCapturedAmountWasCharged() throws {
        // Given a charge authorised for 100.00 with an application fee of 10.00, captured for 60.00 on an API version
        // before 2025-03-31.basil: Stripe refunded the uncaptured 40.00 (balance transaction
        // `partial_capture_reversal`, counted in amount_refunded), and transferred the 60.00 captured
        var book = Book()
        let charge = book.charge(amount: 10_000, style: .applicationFee, retained: 1_000)
        try Self.capture(&book, charge, captured: 6_000)
        let transfer = try #require(book.input.charges.first { $0.id == charge }?.transferID)
        let t = try #require(book.input.transfers.firstIndex { $0.id == transfer })
        book.input.transfers[t].amount = 6_000
        book.refund(charge, amount: 4_000, category: "partial_capture_reversal")
        // When reconciled
        let report = book.reconcile()
        // Then the DPF is as if 60.00 were charged and nothing refunded: 60.00 − 60.00 + 10.00
        let row = try #require(report.platformFees.first)
        #expect(row.amountRefunded == 0)
        #expect(row.destinationPlatformFee == 1_000)
        #expect(report.summary.first?.refunded == 0)
        // and the remainder's refund is no finding: nothing to recover, no transfer to check against 100.00
        #expect(report.exceptions.isEmpty, "\(report.exceptions.map(\.kind))")
    }

    @Test func anAuthorisationStripeReleasedIsNoCharge() throws {
        // Given a charge whose authorisation expired uncaptured: nothing captured, the whole amount "refunded" with
        // reason expired_uncaptured_charge, no transfer made
        var book = Book()
        let charge = book.charge(amount: 5_000, style: .transferAmount, retained: 500, transferred: false)
        try Self.capture(&book, charge, captured: 0, final: false)
        book.refund(charge, amount: 5_000, reason: .expiredUncapturedCharge)
        // When reconciled
        let report = book.reconcile()
        // Then it is not a charge docs/RULES.md reasons about: no row, no skipped transfer, no finding
        #expect(report.platformFees.isEmpty)
        #expect(report.skippedTransfers.isEmpty)
        #expect(report.exceptions.isEmpty, "\(report.exceptions.map(\.kind))")
    }

    struct SkippedCase: Sendable, CustomTestStringConvertible {
        var style: Book.Style
        var owed: Int64
        var testDescription: String { "\(style)" }
    }

    /// 100.00 authorised, 60.00 captured; the PaymentIntent asked for a transfer of 90.00, or an application fee
    /// of 10.00: owed min(90.00, 60.00), or 60.00 − 10.00.
    static let skipped: [SkippedCase] = [
        SkippedCase(style: .transferAmount, owed: 6_000),
        SkippedCase(style: .applicationFee, owed: 5_000),
    ]

    @Test(arguments: skipped)
    func aPartiallyCapturedSkippedTransferOwesOnlyWhatWasCaptured(_ example: SkippedCase) throws {
        // Given a debit authorised for 100.00, captured for 60.00, whose transfer Stripe skipped
        var book = Book()
        let charge = book.charge(amount: 10_000, style: example.style, retained: 1_000, transferred: false)
        try Self.capture(&book, charge, captured: 6_000)
        // When reconciled
        let row = try #require(book.reconcile().skippedTransfers.first)
        // Then what is owed is capped at what was captured
        #expect(row.amountOwed == example.owed)
    }

    @Test func aMulticaptureChargeCountsBeforeItsFinalCapture() throws {
        // Given a multicapture charge with 50.00 of 100.00 captured so far: `captured` stays false until the final
        // capture, while its balance transaction, transfer (of what was captured) and fee exist
        var book = Book()
        let charge = book.charge(amount: 10_000, style: .transferAmount, retained: 1_000)
        try Self.capture(&book, charge, captured: 5_000, final: false)
        let transfer = try #require(book.input.charges.first { $0.id == charge }?.transferID)
        let t = try #require(book.input.transfers.firstIndex { $0.id == transfer })
        book.input.transfers[t].amount = 5_000
        // When reconciled
        let report = book.reconcile()
        // Then it has its row, on what was captured: 50.00 − 50.00 transferred, nothing kept yet
        let row = try #require(report.platformFees.first)
        #expect(row.chargeID == charge)
        #expect(row.destinationPlatformFee == 0)
        // and its transfer, capped at the captured 50.00, is what it asked for
        #expect(report.exceptions.isEmpty, "\(report.exceptions.map(\.kind))")
    }
}
