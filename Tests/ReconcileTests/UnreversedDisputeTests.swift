import ReconCore
import Reconcile
import Testing

/// Unreversed disputes (docs/RULES.md): funds withdrawn from the platform and not recovered from the connected account.
@Suite struct UnreversedDisputeTests {
    struct StatusCase: Sendable, CustomTestStringConvertible {
        var status: String
        var recovery: Int64
        /// The expected unrecovered amount, `nil` for no row.
        var unrecovered: Int64?
        var testDescription: String { "\(status) recovered \(recovery)" }
    }

    /// A 10.00 usd full-transfer charge disputed in full; the recovery reverses `recovery` of the transfer after
    /// the dispute.
    static let statuses: [StatusCase] = [
        StatusCase(status: "warning_needs_response", recovery: 0, unrecovered: nil),
        StatusCase(status: "warning_under_review", recovery: 0, unrecovered: nil),
        StatusCase(status: "warning_closed", recovery: 0, unrecovered: nil),
        StatusCase(status: "needs_response", recovery: 0, unrecovered: 1_000),
        StatusCase(status: "needs_response", recovery: 1_000, unrecovered: nil),
        StatusCase(status: "under_review", recovery: 0, unrecovered: 1_000),
        StatusCase(status: "under_review", recovery: 400, unrecovered: 600),
        StatusCase(status: "lost", recovery: 0, unrecovered: 1_000),
        StatusCase(status: "lost", recovery: 1_000, unrecovered: nil),
        StatusCase(status: "lost", recovery: 250, unrecovered: 750),
        StatusCase(status: "won", recovery: 0, unrecovered: nil),
        StatusCase(status: "won", recovery: 1_000, unrecovered: nil),
        StatusCase(status: "prevented", recovery: 0, unrecovered: nil),
    ]

    @Test(arguments: statuses)
    func everyDisputeStatusWithAndWithoutRecovery(_ example: StatusCase) throws {
        // Given a disputed destination charge, with a recovery reversal an hour after the dispute
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer)
        let dispute = book.dispute(charge, status: DisputeStatus(rawValue: example.status), created: Book.from + 10_800)
        if example.recovery > 0 {
            book.reverse(book.transferID(of: charge), amount: example.recovery, created: Book.from + 14_400)
        }
        // When reconciled
        let report = book.reconcile()
        // Then a row appears exactly when funds are still withdrawn and not all recovered
        let row = report.unreversedDisputes.first
        #expect(row?.unrecovered == example.unrecovered)
        if let row {
            #expect(row.disputeID == dispute)
            #expect(row.chargeID == charge)
            #expect(row.recoverable == 1_000)
            #expect(row.recovered == example.recovery)
            #expect(row.disputeStatus.rawValue == example.status)
            #expect(row.destinationAccount == "acct_1")
            #expect(row.transferID == book.transferID(of: charge))
            #expect(row.status == .new)
            let summary = try #require(report.summary.first { $0.currency == .usd })
            #expect(summary.unreversedDisputes == 1)
            #expect(summary.unrecovered == example.unrecovered)
        }
    }

    @Test func aRecoveryReversalCreatedBeforeTheDisputeIsNotCounted() throws {
        // Given a manual reversal of 4.00 made before the dispute was opened
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer)
        book.reverse(book.transferID(of: charge), amount: 400, created: Book.from + 7_200)
        book.dispute(charge, status: "lost", amount: 1_000, created: Book.from + 10_800)
        // When reconciled
        let row = try #require(book.reconcile().unreversedDisputes.first)
        // Then it recovered nothing of this dispute
        #expect(row.recovered == 0)
        #expect(row.unrecovered == 1_000)
    }

    @Test func refundLinkedReversalsLowerWhatIsRecoverable() throws {
        // Given 10.00 full transfer, 3.00 refunded with reverse_transfer, then the remaining 7.00 disputed
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer)
        book.refund(charge, amount: 300, reversal: 300)
        book.dispute(charge, status: "lost")
        // When reconciled
        let row = try #require(book.reconcile().unreversedDisputes.first)
        // Then recoverable = min(700, 1000 − 300) = 700
        #expect(row.disputeAmount == 700)
        #expect(row.recoverable == 700)
        #expect(row.unrecovered == 700)
    }

    @Test func aTransferAmountChargeCanOnlyRecoverWhatWasTransferred() throws {
        // Given 10.00 with transfer_data[amount] 8.77, disputed in full
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .transferAmount, retained: 123)
        book.dispute(charge, status: "needs_response")
        // When reconciled
        let row = try #require(book.reconcile().unreversedDisputes.first)
        // Then recoverable = min(1000, 877)
        #expect(row.recoverable == 877)
        #expect(row.unrecovered == 877)
    }

    @Test func anInquiryFollowedByARealDisputeReportsOnlyTheRealOne() throws {
        // Given an inquiry (warning_closed), then a lost dispute recovered in full, then a charge with the same
        // pair but no recovery
        var book = Book()
        let recovered = book.charge(amount: 1_000, style: .applicationFee)
        book.dispute(recovered, status: "warning_closed", created: Book.from + 7_200)
        let lost = book.dispute(recovered, status: "lost", created: Book.from + 14_400)
        book.reverse(book.transferID(of: recovered), amount: 1_000, disputeTag: lost, created: Book.from + 18_000)
        let unrecovered = book.charge(amount: 2_000, style: .applicationFee)
        book.dispute(unrecovered, status: "warning_closed", created: Book.from + 7_200)
        let open = book.dispute(unrecovered, status: "lost", created: Book.from + 14_400)
        // When reconciled
        let rows = book.reconcile().unreversedDisputes
        // Then only the second charge's lost dispute is reported
        #expect(rows.map(\.disputeID) == [open])
        #expect(rows.first?.unrecovered == 2_000)
    }

    @Test func twoWithdrawingDisputesOnOneChargeNeverShareARecovery() throws {
        // Given two lost disputes of 5.00 on one 10.00 charge: a tagged recovery of 4.00 for the first, then an
        // untagged recovery of 3.00 after the second
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer)
        let transfer = book.transferID(of: charge)
        let first = book.dispute(charge, status: "lost", amount: 500, created: Book.from + 7_200)
        let second = book.dispute(charge, status: "lost", amount: 500, created: Book.from + 14_400)
        book.reverse(transfer, amount: 400, disputeTag: first, created: Book.from + 20_000)
        book.reverse(transfer, amount: 300, created: Book.from + 21_000)
        // When reconciled
        let rows = Dictionary(uniqueKeysWithValues: book.reconcile().unreversedDisputes.map { ($0.disputeID, $0) })
        // Then the tagged one counts for the first, the untagged one for the latest dispute before it
        #expect(rows[first]?.recovered == 400)
        #expect(rows[first]?.unrecovered == 100)
        #expect(rows[second]?.recovered == 300)
        #expect(rows[second]?.unrecovered == 200)
    }

    @Test func aDisputeOnASkippedTransferHasNothingToRecover() {
        // Given a charge whose transfer Stripe skipped, then disputed: the funds never left the platform
        var book = Book()
        let charge = book.charge(style: .transferAmount, transferred: false)
        book.dispute(charge, status: "lost")
        // Then no unreversed dispute
        #expect(book.reconcile().unreversedDisputes.isEmpty)
    }

    @Test func disputesOutsideTheRangeOrOnPlainChargesAreNotReported() {
        var book = Book()
        let destination = book.charge(style: .fullTransfer)
        book.dispute(destination, status: "lost", created: Book.to + 10)
        let plain = book.charge(style: .plain)
        book.dispute(plain, status: "lost")
        #expect(book.reconcile().unreversedDisputes.isEmpty)
    }
}
