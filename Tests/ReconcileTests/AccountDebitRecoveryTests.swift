import ReconCore
import Reconcile
import Testing

/// Account debits as recoveries (docs/RULES.md, "The platform's other money"): a debit linked to a charge, its
/// PaymentIntent, a refund, a dispute or a transfer group by its metadata (`reconcile.debit_link_keys`) or its
/// `transfer_group` counts in refund recovery's `given_back` and an unreversed dispute's `recovered`.
@Suite struct AccountDebitRecoveryTests {
    /// A 10.00 usd full-transfer charge to acct_1 refunded 4.00 two hours in, without reverse_transfer.
    static func refundedCharge(_ book: inout Book) -> (charge: String, refund: String) {
        let charge = book.charge(amount: 1_000, style: .fullTransfer)
        let refund = book.refund(charge, amount: 400, created: Book.from + 7_200)
        return (charge, refund)
    }

    static func debit(
        _ book: inout Book, _ id: String, amount: Int64, metadata: [String: String] = [:],
        transferGroup: String? = nil, created: Int64, currency: Currency = .usd
    ) {
        AccountDebitTests.debit(
            &book, id, amount: amount, currency: currency, transferGroup: transferGroup, created: created)
        book.input.charges[book.input.charges.count - 1].metadata = metadata
    }

    @Test(arguments: [
        ("the charge", "charge"), ("the PaymentIntent", "payment_intent"), ("the refund", "refund"),
    ])
    func aDebitNamingTheChargeOrItsRefundGivesTheShareBack(what: String, key: String) throws {
        // Given the refunded charge and a 4.00 debit of acct_1 an hour after the refund naming it
        var book = Book()
        let (charge, refund) = Self.refundedCharge(&book)
        let intent = try #require(book.charge(charge).paymentIntentID)
        let value = key == "charge" ? charge : key == "refund" ? refund : intent
        Self.debit(&book, "py_1", amount: 400, metadata: [key: value], created: Book.from + 10_800)
        // When reconciled
        let report = book.reconcile()
        // Then the share was given back: no refund_not_recovered; the debit is in acct_1's statement
        #expect(!report.exceptions.contains { $0.kind == .refundNotRecovered }, "\(what)")
        #expect(report.connectedAccounts.first { $0.destinationAccount == "acct_1" }?.accountDebits == 400)
    }

    @Test func aDebitMadeWithATransferNamingTheChargeGivesTheShareBack() throws {
        // Given the refunded charge and a 4.00 debit naming nothing itself, made with a transfer on acct_1 whose
        // metadata names the charge (Stripe's transfer approach, labelled as GOV.UK Pay labels it)
        var book = Book()
        let (charge, _) = Self.refundedCharge(&book)
        Self.debit(&book, "py_1", amount: 400, metadata: ["reason": "refund"], created: Book.from + 10_800)
        book.input.charges[book.input.charges.count - 1].sourceTransfer = DebitSourceTransfer(
            transferID: "tr_on_acct_1", metadata: ["stripe_charge_id": charge, "reason": "transfer_refund_amount"])
        // When reconciled
        let report = book.reconcile()
        // Then the share was given back
        #expect(!report.exceptions.contains { $0.kind == .refundNotRecovered })
        // and a transfer naming nothing under the keys gives nothing back
        book.input.charges[book.input.charges.count - 1].sourceTransfer = DebitSourceTransfer(
            transferID: "tr_on_acct_1", metadata: ["govuk_pay_transaction_external_id": charge])
        #expect(book.reconcile().exceptions.contains { $0.kind == .refundNotRecovered })
    }

    @Test func aLabelThatNamesNothingHeldDoesNotMakeTheDebitAnotherObjects() throws {
        // Given the refunded charge and a 4.00 debit made with a transfer naming the charge, its group the platform's
        // own payment id (GOV.UK Pay's way)
        var book = Book()
        let (charge, _) = Self.refundedCharge(&book)
        Self.debit(&book, "py_1", amount: 400, created: Book.from + 10_800)
        let last = book.input.charges.count - 1
        book.input.charges[last].sourceTransfer = DebitSourceTransfer(
            transferID: "tr_on_acct_1", metadata: ["stripe_charge_id": charge], transferGroup: "payment-7")
        // When reconciled as the history reads it, knowing the payment id names nothing it holds
        book.input.charges[last].linksHeldNowhere = ["payment-7"]
        // Then the share was given back
        #expect(!book.reconcile().exceptions.contains { $0.kind == .refundNotRecovered })
        // and, were the payment id an object of its own, the debit would be that object's, not the charge's
        book.input.charges[last].linksHeldNowhere = []
        #expect(book.reconcile().exceptions.contains { $0.kind == .refundNotRecovered })
    }

    @Test func aDebitNamingNothingOrUnderAnotherKeyRecoversNothing() throws {
        // Given the refunded charge, a debit naming nothing and one naming it under a key not configured
        var book = Book()
        let (charge, _) = Self.refundedCharge(&book)
        Self.debit(&book, "py_1", amount: 400, created: Book.from + 10_800)
        Self.debit(&book, "py_2", amount: 400, metadata: ["order": charge], created: Book.from + 10_900)
        // When reconciled with the default keys
        let row = try #require(book.reconcile().exceptions.first { $0.kind == .refundNotRecovered })
        // Then nothing was given back
        #expect(row.actual == .amount(0))
        // and with `order` among the keys, the second debit gives the share back
        let custom = Reconciler.reconcile(book.input, debitLinkKeys: ["order"])
        #expect(!custom.exceptions.contains { $0.kind == .refundNotRecovered })
    }

    @Test func aDebitBeforeTheRefundOrAfterADisputeIsNotTheRefunds() throws {
        // Given the refunded charge disputed five hours in, a debit naming the charge before the refund and one after
        // the dispute
        var book = Book()
        let (charge, _) = Self.refundedCharge(&book)
        let dispute = book.dispute(charge, status: .needsResponse, amount: 600, created: Book.from + 18_000)
        Self.debit(&book, "py_1", amount: 400, metadata: ["charge": charge], created: Book.from + 3_600 + 60)
        Self.debit(&book, "py_2", amount: 600, metadata: ["charge": charge], created: Book.from + 20_000)
        // When reconciled
        let report = book.reconcile()
        // Then the refund's share is still owed (neither debit is its), and the dispute is recovered by the second
        let refundRow = try #require(report.exceptions.first { $0.kind == .refundNotRecovered })
        #expect(refundRow.actual == .amount(0))
        #expect(!report.unreversedDisputes.contains { $0.disputeID == dispute })
    }

    @Test func aDebitNamingTheDisputeRecoversIt() throws {
        // Given a disputed destination charge and a debit naming the dispute (GOV.UK Pay's way), partly
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer)
        let dispute = book.dispute(charge, status: .lost, created: Book.from + 10_800)
        Self.debit(&book, "py_1", amount: 700, metadata: ["dispute": dispute], created: Book.from + 14_400)
        // When reconciled
        let row = try #require(book.reconcile().unreversedDisputes.first)
        // Then the debit counts as recovered
        #expect(row.recovered == 700)
        #expect(row.unrecovered == 300)
    }

    @Test func aDebitTaggedWithATransferGroupGivesTheGroupsRefundShareBack() throws {
        // Given a separately transferred charge of group order_1 (10.00, 8.00 transferred), refunded 5.00, and a 4.00
        // debit carrying the group's transfer_group
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .plain, transferGroup: "order_1")
        book.transfer(amount: 800, source: charge, group: "order_1")
        book.refund(charge, amount: 500, created: Book.from + 7_200)
        Self.debit(&book, "py_1", amount: 400, transferGroup: "order_1", created: Book.from + 10_800)
        // When reconciled
        let report = book.reconcile()
        // Then the group's share (4.00) was given back
        #expect(!report.exceptions.contains { $0.kind == .refundNotRecovered }, "\(report.exceptions)")
    }

    @Test func aDebitInAnotherCurrencyRecoversNothing() throws {
        var book = Book()
        let (charge, _) = Self.refundedCharge(&book)
        Self.debit(
            &book, "py_1", amount: 400, metadata: ["charge": charge], created: Book.from + 10_800, currency: .eur)
        let row = try #require(book.reconcile().exceptions.first { $0.kind == .refundNotRecovered })
        #expect(row.actual == .amount(0))
    }
}
