import ReconCore
import Reconcile
import Testing

/// Each exception kind fires exactly when it should, with the ground truth's object / related / expected / actual.
@Suite struct ExceptionTests {
    @Test func aCleanBookHasNoExceptions() {
        // Given every fee style, refunds that reverse and refund the fee, a recovered dispute and a repaid won one
        var book = Book()
        let fee = book.charge(style: .applicationFee)
        book.refund(fee, amount: 400, reversal: 400, feeRefund: 49)
        let amount = book.charge(style: .transferAmount)
        book.refund(amount, amount: 1_000, reversal: 877)
        let full = book.charge(style: .fullTransfer)
        let lost = book.dispute(full, status: "lost")
        book.reverse(book.transferID(of: full), amount: 1_000, disputeTag: lost, created: Book.from + 20_000)
        let won = book.charge(style: .fullTransfer, destination: "acct_2")
        let dispute = book.dispute(won, status: "won")
        book.reverse(book.transferID(of: won), amount: 1_000, disputeTag: dispute, created: Book.from + 20_000)
        book.transfer(amount: 1_000, destination: "acct_2", created: Book.from + 30_000, disputeTag: dispute)
        book.charge(style: .plain)
        book.transfer(amount: 5_000, destination: "acct_3")
        // When reconciled
        let report = book.reconcile()
        // Then there is nothing to report
        #expect(report.exceptions == [])
        #expect(report.unreversedDisputes == [])
    }

    @Test func aRequestedApplicationFeeThatStripeNeverCreatedIsMissing() throws {
        // Given a charge that shows application_fee_amount 1.23 but has no application fee
        var book = Book()
        let charge = book.charge(style: .applicationFee)
        book.input.applicationFees.removeAll()
        book.input.charges[0].applicationFeeID = nil
        // When reconciled
        let exceptions = book.reconcile().exceptions
        // Then application_fee_missing names the charge: expected 123, actual 0
        let row = try #require(exceptions.only)
        #expect(row.kind == .applicationFeeMissing)
        #expect(row.objectID == charge)
        #expect(row.relatedID == nil)
        #expect(row.currency == .usd)
        #expect(row.expected == .amount(123))
        #expect(row.actual == .amount(0))
        #expect(row.message.contains(charge))
    }

    @Test func anApplicationFeeOfAnotherAmountIsAMismatch() throws {
        var book = Book()
        let charge = book.charge(style: .applicationFee)
        book.input.applicationFees[0].amount = 128
        let row = try #require(book.reconcile().exceptions.only)
        #expect(row.kind == .applicationFeeAmountMismatch)
        #expect(row.objectID == book.input.applicationFees[0].id)
        #expect(row.relatedID == charge)
        #expect(row.expected == .amount(123))
        #expect(row.actual == .amount(128))
    }

    @Test func aTransferOfAnotherAmountIsAMismatch() throws {
        // Given transfer_data[amount] 8.77 but a transfer of 8.67
        var book = Book()
        let charge = book.charge(style: .transferAmount)
        book.input.transfers[0].amount = 867
        let row = try #require(book.reconcile().exceptions.only)
        #expect(row.kind == .transferAmountMismatch)
        #expect(row.objectID == book.transferID(of: charge))
        #expect(row.relatedID == charge)
        #expect(row.expected == .amount(877))
        #expect(row.actual == .amount(867))
    }

    @Test func aTransferInAnotherCurrencyIsFlaggedAndTheFeeStillComputed() throws {
        // Given a 10.00 usd full-transfer charge whose transfer is 10.00 eur (settled in usd at 1.08)
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer, transferred: false)
        let transfer = book.transfer(
            amount: 1_000, currency: .eur, source: charge,
            settlement: Book.Settlement(currency: .usd, rateMillionths: 1_080_000))
        book.input.charges[0].transferID = transfer
        book.input.charges[0].destinationAccountID = "acct_1"
        // When reconciled
        let report = book.reconcile()
        // Then transfer_currency_mismatch says so: expected usd, actual eur
        let row = try #require(report.exceptions.only)
        #expect(row.kind == .transferCurrencyMismatch)
        #expect(row.objectID == transfer)
        #expect(row.relatedID == charge)
        #expect(row.expected == .text("usd"))
        #expect(row.actual == .text("eur"))
        // and the DPF is computed from the objects' numbers (1000 − 1000), which the exception warns about
        #expect(report.platformFees.first?.destinationPlatformFee == 0)
        // while the net stays in usd: 941 − 1080
        #expect(report.platformFees.first?.platformNet == 941 - 1_080)
    }

    @Test func aTransferToAnotherAccountIsAMismatch() throws {
        var book = Book()
        let charge = book.charge(style: .fullTransfer, destination: "acct_1")
        book.input.transfers[0].destinationAccountID = "acct_2"
        let row = try #require(book.reconcile().exceptions.only)
        #expect(row.kind == .transferDestinationMismatch)
        #expect(row.objectID == book.transferID(of: charge))
        #expect(row.expected == .text("acct_1"))
        #expect(row.actual == .text("acct_2"))
    }

    @Test func aSettledChargeTransferOrFeeWithoutBalanceTransactionIsFlagged() {
        // Given a succeeded plain charge with no balance transaction, a transfer without one, a fee without one,
        // and a charge naming a balance transaction the input lacks
        var book = Book()
        let charge = book.charge(style: .plain, withBalanceTransaction: false)
        let transfer = book.transfer(amount: 500, withBalanceTransaction: false)
        let feeCharge = book.charge(style: .applicationFee)
        book.input.applicationFees[0].balanceTransactionID = nil
        let feeID = book.input.applicationFees[0].id
        book.input.balanceTransactions.removeAll { $0.sourceID == feeID }
        let named = book.charge(style: .plain)
        book.input.balanceTransactions.removeAll { $0.sourceID == named }
        // When reconciled
        let rows = book.reconcile().exceptions
        // Then each is missing_balance_transaction
        #expect(rows.allSatisfy { $0.kind == .missingBalanceTransaction })
        #expect(Set(rows.map(\.objectID)) == [charge, transfer, book.input.applicationFees[0].id, named])
        #expect(rows.first { $0.objectID == book.input.applicationFees[0].id }?.relatedID == feeCharge)
    }

    @Test func pendingFailedAndYoungChargesLegitimatelyHaveNoBalanceTransaction() {
        var book = Book()
        book.charge(style: .plain, status: "pending", withBalanceTransaction: false)
        book.charge(style: .plain, status: "failed", withBalanceTransaction: false)
        book.charge(style: .plain, created: Book.to - 60, withBalanceTransaction: false)
        book.input.asOf = Book.to
        #expect(book.reconcile().exceptions.isEmpty)
    }

    @Test func aRefundTheAccountDidNotGiveBackIsNotRecoveredButOneReversedOrOnAPlainChargeIsNot() throws {
        // Given a destination charge refunded 4.00 without reverse_transfer, another with it, and a plain charge
        var book = Book()
        let charge = book.charge(style: .fullTransfer)
        let refund = book.refund(charge, amount: 400)
        let reversed = book.charge(style: .fullTransfer)
        book.refund(reversed, amount: 400, reversal: 400)
        let plain = book.charge(style: .plain)
        book.refund(plain, amount: 400)
        let transfer = try #require(book.input.charges.first { $0.id == charge }?.transferID)
        // When reconciled
        let row = try #require(book.reconcile().exceptions.only)
        // Then only the first charge is flagged, about its refund: the account's share 4.00, nothing given back
        #expect(row.kind == .refundNotRecovered)
        #expect(row.objectID == charge)
        #expect(row.relatedID == transfer)
        #expect(row.expected == .amount(400))
        #expect(row.actual == .amount(0))
        #expect(row.subject?.id == refund)
    }

    @Test func theAccountsShareOfARefundIsProportionalToWhatWasTransferred() throws {
        // Given a transfer-amount charge of 100.00 that transferred 80.00, refunded 40.00 without reverse_transfer
        var book = Book()
        let charge = book.charge(amount: 10_000, style: .transferAmount, retained: 2_000)
        book.refund(charge, amount: 4_000)
        // When reconciled
        let row = try #require(book.reconcile().exceptions.only)
        // Then the account's share is 40.00 × 80.00 / 100.00 = 32.00, and nothing was given back
        #expect(row.kind == .refundNotRecovered)
        #expect(row.expected == .amount(3_200))
        #expect(row.actual == .amount(0))
    }

    struct RecoveryCase: Sendable, CustomTestStringConvertible {
        var name: String
        /// A reversal made by hand, not linked to the refund, this many seconds after the refund (negative: before).
        var reversed: Int64
        var after: Int64 = 3_600
        var flagged: Bool
        var testDescription: String { name }
    }

    static let recoveryCases: [RecoveryCase] = [
        RecoveryCase(name: "reversed by hand, exactly the share", reversed: 3_200, flagged: false),
        RecoveryCase(name: "reversed by hand, short by 2.00", reversed: 3_000, flagged: true),
        RecoveryCase(name: "reversed by hand, short by one cent (rounding)", reversed: 3_199, flagged: false),
        RecoveryCase(name: "reversed by hand before the refund", reversed: 3_200, after: -60, flagged: true),
    ]

    @Test(arguments: recoveryCases)
    func aRefundRecoveredByHandCountsByTheMoney(_ example: RecoveryCase) throws {
        // Given a transfer-amount charge of 100.00/80.00 refunded 40.00 without reverse_transfer, then a reversal of
        // the transfer made by hand (POST /v1/transfers/{id}/reversals: it names no refund)
        var book = Book()
        let charge = book.charge(amount: 10_000, style: .transferAmount, retained: 2_000)
        let refunded = Book.from + 7_200
        book.refund(charge, amount: 4_000, created: refunded)
        let transfer = try #require(book.input.charges.first { $0.id == charge }?.transferID)
        book.reverse(transfer, amount: example.reversed, created: refunded + example.after)
        // When reconciled
        let rows = book.reconcile().exceptions.filter { $0.kind == .refundNotRecovered }
        // Then what was given back, by hand, is what counts against the share of 32.00
        #expect(rows.count == (example.flagged ? 1 : 0))
        if example.flagged {
            #expect(rows.first?.expected == .amount(3_200))
            #expect(rows.first?.actual == .amount(example.after < 0 ? 0 : example.reversed))
        }
    }

    @Test func aReversalAfterADisputeRecoversTheDisputeNotTheRefund() throws {
        // Given a full-transfer charge of 10.00 refunded 4.00 without reverse_transfer, then disputed for the rest,
        // and a reversal of 6.00 by hand after the dispute (its recovery)
        var book = Book()
        let charge = book.charge(style: .fullTransfer)
        book.refund(charge, amount: 400, created: Book.from + 7_200)
        book.dispute(charge, status: "lost", created: Book.from + 10_000)
        let transfer = try #require(book.input.charges.first { $0.id == charge }?.transferID)
        book.reverse(transfer, amount: 600, created: Book.from + 20_000)
        // When reconciled
        let rows = book.reconcile().exceptions.filter { $0.kind == .refundNotRecovered }
        // Then the refund's share of 4.00 was not given back: the reversal after the dispute is the dispute's
        #expect(rows.first?.expected == .amount(400))
        #expect(rows.first?.actual == .amount(0))
    }

    @Test func aFailedRefundsReversalGivesNothingBackForAnotherRefund() throws {
        // Given a charge refunded 3.00 with reverse_transfer, whose refund failed, and refunded 3.00 again without it
        var book = Book()
        let charge = book.charge(style: .fullTransfer)
        let failed = book.refund(charge, amount: 300, reversal: 300, created: Book.from + 3_600)
        book.failRefund(failed, at: Book.from + 5_000)
        book.refund(charge, amount: 300, created: Book.from + 7_200)
        // When reconciled
        let rows = book.reconcile().exceptions.filter { $0.kind == .refundNotRecovered }
        // Then the second refund's share is not recovered by the failed refund's reversal (that one is owed back)
        #expect(rows.first?.expected == .amount(300))
        #expect(rows.first?.actual == .amount(0))
    }

    struct WonCase: Sendable, CustomTestStringConvertible {
        var recovered: Int64
        var repaid: Int64?
        var sameAccount: Bool = true
        var flagged: Bool
        var testDescription: String { "recovered \(recovered) repaid \(repaid ?? 0) same account \(sameAccount)" }
    }

    static let wonCases: [WonCase] = [
        WonCase(recovered: 1_000, repaid: nil, flagged: true),
        WonCase(recovered: 1_000, repaid: 1_000, flagged: false),
        WonCase(recovered: 1_000, repaid: 600, flagged: true),
        WonCase(recovered: 1_000, repaid: 1_000, sameAccount: false, flagged: true),
        WonCase(recovered: 0, repaid: nil, flagged: false),
    ]

    @Test(arguments: wonCases)
    func aWonDisputeWhoseRecoveryWasNotPaidBackIsFlagged(_ example: WonCase) throws {
        // Given a won dispute whose funds the platform had recovered by a reversal
        var book = Book()
        let charge = book.charge(style: .fullTransfer)
        let transfer = book.transferID(of: charge)
        let dispute = book.dispute(charge, status: "won")
        if example.recovered > 0 {
            book.reverse(transfer, amount: example.recovered, disputeTag: dispute, created: Book.from + 20_000)
        }
        if let repaid = example.repaid {
            book.transfer(
                amount: repaid, destination: example.sameAccount ? "acct_1" : "acct_9", created: Book.from + 40_000,
                disputeTag: dispute)
        }
        // When reconciled
        let rows = book.reconcile().exceptions
        // Then won_dispute_not_repaid names the dispute and its transfer: expected recovered, actual repaid
        #expect(rows.count == (example.flagged ? 1 : 0))
        if example.flagged {
            let row = try #require(rows.only)
            #expect(row.kind == .wonDisputeNotRepaid)
            #expect(row.objectID == dispute)
            #expect(row.relatedID == transfer)
            #expect(row.expected == .amount(example.recovered))
            #expect(row.actual == .amount(example.sameAccount ? example.repaid ?? 0 : 0))
        }
    }

    @Test func everyObjectStripeAnsweredNotFoundForHasARow() {
        // Given two referenced objects the extraction could not fetch
        var book = Book()
        book.input.missingObjects = [(kind: .transfer, id: "tr_gone"), (kind: .charge, id: "ch_gone")]
        // When reconciled
        let rows = book.reconcile().exceptions
        // Then one missing_object row each, sorted by id, with an actionable message
        #expect(rows.map(\.kind) == [.missingObject, .missingObject])
        #expect(rows.map(\.objectID) == ["ch_gone", "tr_gone"])
        #expect(rows.allSatisfy { $0.message.contains("404") && $0.status == .new })
    }
}

extension Array {
    /// The single element, or `nil` when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
