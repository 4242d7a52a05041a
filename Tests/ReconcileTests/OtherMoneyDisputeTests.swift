import ReconCore
import Reconcile
import Testing

/// Disputes in the platform's other money (docs/RULES.md): a dispute on a destination charge made `on_behalf_of` its
/// connected account, which Stripe asks platforms to recover only once it is lost (no unreversed dispute while it is
/// being decided), and a dispute's cost over all of its balance transactions.
@Suite struct OtherMoneyDisputeTests {
    @Test(arguments: [
        (DisputeStatus.needsResponse, false), (.underReview, false), (.lost, true), (.won, false),
    ])
    func anOnBehalfOfDisputeIsUnreversedOnlyOnceLost(status: DisputeStatus, reported: Bool) throws {
        // Given a 10.00 usd destination charge made on behalf of its account, disputed in full, nothing recovered
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer)
        book.input.charges[0].onBehalfOf = "acct_1"
        let dispute = book.dispute(charge, status: status)
        // When reconciled
        let report = book.reconcile()
        // Then it is an unreversed dispute only when lost
        #expect(report.unreversedDisputes.map(\.disputeID) == (reported ? [dispute] : []))
        #expect(report.summary.first?.unreversedDisputes == (reported ? 1 : 0))
    }

    @Test func aDisputeOnAChargeNotMadeOnBehalfOfAnAccountIsUnreversedWhileDecided() throws {
        // Given the same charge without on_behalf_of, its dispute under review
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer)
        let dispute = book.dispute(charge, status: .underReview)
        // Then it is unreversed from the day it opens
        #expect(book.reconcile().unreversedDisputes.map(\.disputeID) == [dispute])
    }

    @Test func aDisputesCostIsEveryOneOfItsBalanceTransactions() throws {
        // Given a 10.00 usd destination charge lost in a dispute: the withdrawal (−10.00, fee 15.00) and a currency
        // true-up (`Adjustment of lost dispute`, −0.37, category dispute_reversal), three balance transactions in all
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer, stripeFee: 59)
        let dispute = book.dispute(charge, status: .lost)
        let trueUp = book.balanceTransaction(
            created: Book.from + 20_000, currency: .usd, amount: -37, fee: 0, type: .adjustment,
            category: .disputeReversal, source: dispute)
        book.input.disputes[0].balanceTransactionIDs.append(trueUp)
        // When reconciled
        let row = try #require(book.reconcile().platformFees.first)
        // Then the platform net counts all three: 10.00 − 0.59 − 10.00 (the transfer) − 25.00 − 0.37
        #expect(row.platformNet == 1_000 - 59 - 1_000 - 1_000 - 1_500 - 37)
    }
}
