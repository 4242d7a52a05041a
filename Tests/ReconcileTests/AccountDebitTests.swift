import ReconCore
import Reconcile
import Testing

/// Account debits (docs/RULES.md, "The platform's other money"): a charge whose payment method is a connected account
/// is money the account gave the platform, counted in its statement and the Summary as `account_debits`, never a sale.
@Suite struct AccountDebitTests {
    /// Adds an account debit of `amount` from `account` (a `py_…` whose `source` is the account).
    static func debit(
        _ book: inout Book, _ id: String, account: String = "acct_1", amount: Int64, refunded: Int64 = 0,
        currency: Currency = .usd, status: ChargeStatus = .succeeded, transferGroup: String? = nil,
        created: Int64 = Book.from + 7_200, method: String = ChargeFacts.accountDebitMethod
    ) {
        let bt = book.balanceTransaction(
            created: created, currency: currency, amount: amount, fee: 0, type: .payment, category: .charge,
            source: id)
        book.input.charges.append(
            ChargeFacts(
                id: id, created: created, currency: currency, amount: amount, amountCaptured: amount,
                amountRefunded: refunded, status: status, captured: true, paymentIntentID: nil, transferID: nil,
                applicationFeeID: nil, applicationFeeAmount: nil, destinationAccountID: nil, transferDataAmount: nil,
                balanceTransactionID: bt, livemode: false, transferGroup: transferGroup, paymentMethodType: method,
                sourceID: account))
    }

    @Test func debitsCountInTheDebitedAccountsStatementAndTheSummary() throws {
        // Given a destination charge to acct_1 and three debits: 4.00 from acct_1, 6.00 from acct_2 of which 1.00 was
        // refunded, and a failed one from acct_1
        var book = Book()
        book.charge(amount: 1_000, style: .applicationFee)
        Self.debit(&book, "py_1", account: "acct_1", amount: 400)
        Self.debit(&book, "py_2", account: "acct_2", amount: 600, refunded: 100)
        Self.debit(&book, "py_3", account: "acct_1", amount: 900, status: .failed)
        // When reconciled
        let report = book.reconcile()
        // Then each account's statement holds what was debited from it, and the Summary their sum
        let statements = Dictionary(
            uniqueKeysWithValues: report.connectedAccounts.map { ($0.destinationAccount ?? "", $0) })
        #expect(statements["acct_1"]?.accountDebits == 400)
        #expect(statements["acct_1"]?.destinationCharges == 1)
        #expect(statements["acct_2"]?.accountDebits == 500)
        #expect(statements["acct_2"]?.destinationCharges == 0)
        #expect(report.summary.first?.accountDebits == 900)
        // and no debit is a sale: one platform-fee row, the destination charge's; gross is its amount alone
        #expect(report.platformFees.map(\.chargeID).allSatisfy { !$0.hasPrefix("py_") })
        #expect(report.summary.first?.gross == 1_000)
    }

    @Test func aDebitNamingATransferGroupIsNoMemberOfIt() throws {
        // Given a separately transferred charge of group order_1 and a debit tagged with the same group
        var book = Book()
        book.charge(amount: 1_000, style: .plain, transferGroup: "order_1")
        Self.debit(&book, "py_1", amount: 300, transferGroup: "order_1")
        // When reconciled
        let report = book.reconcile()
        // Then the group has one charge, the platform's sale, and the debit counts as a debit
        let group = try #require(report.transferGroups.first { $0.transferGroup == "order_1" })
        #expect(group.charges == 1)
        #expect(group.charged == 1_000)
        #expect(report.summary.first?.accountDebits == 300)
    }

    @Test func aPaymentFromAnAccountsStripeBalanceIsShownButRecoversNothing() throws {
        // Given a refunded destination charge of acct_1, and acct_1 paying the platform 4.00 from its Stripe balance
        // (revenue, never a recovery), its metadata naming the charge
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer)
        book.refund(charge, amount: 400, created: Book.from + 7_200)
        Self.debit(&book, "py_1", amount: 400, created: Book.from + 10_800, method: "stripe_balance")
        book.input.charges[book.input.charges.count - 1].metadata = ["charge": charge]
        // When reconciled
        let report = book.reconcile()
        // Then it shows in acct_1's statement, and gives nothing of the refund back
        #expect(report.connectedAccounts.first { $0.destinationAccount == "acct_1" }?.accountDebits == 400)
        #expect(report.exceptions.contains { $0.kind == .refundNotRecovered && $0.actual == .amount(0) })
    }

    @Test func aDebitOfAnEarlierDayIsNotCountedAgain() throws {
        // Given a debit created the day before the range, judged again as a late outcome
        var book = Book()
        Self.debit(&book, "py_1", amount: 300, created: Book.from - 3_600)
        book.input.lateOutcomes = JudgedObjects(.charge, ["py_1"])
        // Then the range's statements do not count it
        #expect(book.reconcile().summary.allSatisfy { $0.accountDebits == 0 })
    }
}
