import ReconCore
import Testing

@testable import Reconcile

/// docs/RULES.md, "Separately transferred charges": the platform charges with no destination and pays the connected
/// accounts with transfers it makes itself, tied by `transfer_group` or `source_transaction`.
@Suite struct TransferGroupTests {
    /// An order of 100.00 paying the restaurant 60.00 and the courier 25.00, the courier's reversed 10.00 later.
    private func order(_ book: inout Book, group: String = "order_1234") -> (charge: String, transfers: [String]) {
        let charge = book.charge(amount: 10_000, style: .plain, stripeFee: 320, transferGroup: group)
        let restaurant = book.transfer(
            amount: 6_000, destination: "acct_restaurant", created: Book.from + 7_200, group: group)
        let courier = book.transfer(
            amount: 2_500, destination: "acct_courier", created: Book.from + 9_000, group: group)
        book.reverse(courier, amount: 1_000, created: Book.from + 20_000)
        return (charge, [restaurant, courier])
    }

    @Test func theTakeOfAGroupIsWhatThePlatformKeptAfterItsTransfersAndReversals() throws {
        var book = Book()
        let (charge, _) = order(&book)
        let report = book.reconcile()
        let row = try #require(report.transferGroups.only)
        #expect(row.transferGroup == "order_1234")
        #expect(row.created == book.charge(charge).created)
        #expect(row.currency == .usd)
        #expect((row.charges, row.charged, row.refunded) == (1, 10_000, 0))
        #expect((row.transfers, row.transferred, row.reversed) == (2, 8_500, 1_000))
        #expect(row.platformTake == 2_500)
        #expect(row.stripeFee == 320)
        #expect(row.settlementCurrency == .usd)
        // Net: the charge 10,000 − 320, the transfers −8,500, the reversal +1,000.
        #expect(row.platformNet == Int64(10_000 - 320 - 8_500 + 1_000))
        #expect(report.platformFees.isEmpty)
        #expect(report.exceptions.isEmpty)
        let summary = try #require(report.summary.only)
        #expect((summary.transferGroups, summary.platformTake) == (1, 2_500))
        #expect(summary.destinationCharges == 0)
    }

    @Test func theGroupsTransfersCountInTheirAccountsStatements() throws {
        var book = Book()
        _ = order(&book)
        let statements = book.reconcile().connectedAccounts
        let courier = try #require(statements.first { $0.destinationAccount == "acct_courier" })
        #expect((courier.transferred, courier.reversed, courier.destinationCharges) == (2_500, 1_000, 0))
        let restaurant = try #require(statements.first { $0.destinationAccount == "acct_restaurant" })
        #expect((restaurant.transferred, restaurant.reversed) == (6_000, 0))
    }

    @Test func aTransferMadeAfterTheRangeCountsInItsGroupsRow() throws {
        var book = Book()
        let (_, transfers) = order(&book)
        book.transfer(amount: 500, destination: "acct_tip", created: Book.to + 7_200, group: "order_1234")
        let row = try #require(book.reconcile().transferGroups.only)
        #expect((row.transfers, row.transferred, row.platformTake) == (3, 9_000, 2_000))
        #expect(transfers.count == 2)
    }

    @Test func twoChargesOfOneGroupMakeOneRowFromTheFirst() throws {
        var book = Book()
        let first = book.charge(amount: 4_000, style: .plain, created: Book.from + 100, transferGroup: "cart_9")
        book.charge(amount: 6_000, style: .plain, created: Book.from + 200, transferGroup: "cart_9")
        book.transfer(amount: 9_000, destination: "acct_seller", created: Book.from + 300, group: "cart_9")
        let row = try #require(book.reconcile().transferGroups.only)
        #expect(row.created == book.charge(first).created)
        #expect((row.charges, row.charged, row.transferred, row.platformTake) == (2, 10_000, 9_000, 1_000))
    }

    @Test func aTransferNamingOnlyItsSourceChargeIsAGroupNotAnException() throws {
        var book = Book()
        let plain = book.charge(amount: 1_000, style: .plain)
        let transfer = book.transfer(amount: 500, source: plain)
        // A bonus from the balance, tied to no charge: no row, no finding.
        book.transfer(amount: 700, destination: "acct_bonus")
        let report = book.reconcile()
        #expect(report.exceptions.isEmpty)
        let row = try #require(report.transferGroups.only)
        #expect(row.transferGroup == plain)
        #expect((row.charges, row.transfers, row.platformTake) == (1, 1, 500))
        #expect(transfer.hasPrefix("tr_"))
    }

    @Test func aDestinationChargeNamingAnotherChargesTransferIsStillFlagged() throws {
        var book = Book()
        let funding = book.charge(amount: 1_000, style: .fullTransfer)
        let other = book.charge(amount: 1_000, style: .fullTransfer)
        // The second charge names the first's transfer.
        let c = try #require(book.input.charges.firstIndex { $0.id == other })
        book.input.charges[c].transferID = book.transferID(of: funding)
        let kinds = book.reconcile().exceptions.map(\.kind)
        #expect(kinds.contains(.transferOfAnotherCharge))
    }

    @Test func aDestinationChargeLabelledByStripeWithAGroupIsNoGroup() throws {
        var book = Book()
        let charge = book.charge(amount: 1_000, style: .fullTransfer, transferGroup: "group_pi_0001")
        let report = book.reconcile()
        #expect(report.transferGroups.isEmpty)
        #expect(report.platformFees.map(\.chargeID) == [charge])
    }

    @Test func aGroupInTwoCurrenciesIsReckonedInItsSettlementCurrency() throws {
        // A eur charge settling in usd at 1.08, paying a usd transfer.
        var book = Book()
        let settle = Book.Settlement(currency: .usd, rateMillionths: 1_080_000)
        book.charge(
            amount: 10_000, currency: .eur, style: .plain, stripeFee: 300, settlement: settle, transferGroup: "g")
        book.transfer(amount: 8_000, currency: .usd, destination: "acct_us", group: "g")
        let row = try #require(book.reconcile().transferGroups.only)
        #expect(row.currency == .usd)
        #expect((row.charged, row.transferred, row.reversed, row.platformTake) == (10_800, 8_000, 0, 2_800))
        #expect(row.settlementCurrency == .usd)
        #expect(row.platformNet == Int64(10_800 - 300 - 8_000))
    }

    @Test func aGroupWhoseMoneySettlesInTwoCurrenciesHasNoTake() throws {
        var book = Book()
        book.charge(amount: 10_000, currency: .eur, style: .plain, transferGroup: "g")
        book.transfer(amount: 8_000, currency: .usd, destination: "acct_us", group: "g")
        let report = book.reconcile()
        let row = try #require(report.transferGroups.only)
        #expect(row.currency == nil)
        #expect(row.platformTake == nil && row.charged == nil)
        #expect(row.platformNet == nil)
        #expect(report.summary.allSatisfy { $0.transferGroups == 0 })
    }

    // MARK: Refund recovery of a group

    @Test func aGroupsRefundIsRecoveredWhenItsTransfersGiveTheAccountsShareBack() throws {
        // Refund 40.00 of the order: the accounts' share is 40.00 × 85.00 ÷ 100.00 = 34.00.
        var book = Book()
        let (charge, transfers) = order(&book)
        book.refund(charge, amount: 4_000, created: Book.from + 30_000)
        book.reverse(transfers[0], amount: 2_400, created: Book.from + 40_000)
        book.reverse(transfers[1], amount: 1_000, created: Book.from + 40_000)
        #expect(book.reconcile().exceptions.isEmpty)

        var short = Book()
        let (shortCharge, shortTransfers) = order(&short)
        let shortRefund = short.refund(shortCharge, amount: 4_000, created: Book.from + 30_000)
        short.reverse(shortTransfers[0], amount: 3_000, created: Book.from + 40_000)
        let report = short.reconcile()
        let row = try #require(report.exceptions.only)
        #expect(row.kind == .refundNotRecovered)
        #expect(row.objectID == "order_1234")
        #expect(row.relatedID == nil)
        #expect(row.expected == .amount(3_400))
        #expect(row.actual == .amount(3_000))
        #expect(row.subject?.id == shortRefund)
        // The take reflects the refund and the reversals: 60.00 − (85.00 − 40.00) = 15.00.
        #expect(report.transferGroups.only?.platformTake == 1_500)
    }

    @Test func theCourierReversalBeforeTheRefundGivesNothingBackForIt() throws {
        // The 10.00 reversal of the order was made before the refund: it is not the refund's share.
        var book = Book()
        let (charge, _) = order(&book)
        book.refund(charge, amount: 4_000, created: Book.from + 30_000)
        let row = try #require(book.reconcile().exceptions.only)
        #expect(row.expected == .amount(3_400))
        #expect(row.actual == .amount(0))
    }

    // MARK: Disputes on a group's charge

    @Test func aLostDisputeOnAGroupChargeIsRecoveredFromTheGroupsTransfers() throws {
        var book = Book()
        let (charge, transfers) = order(&book)
        let dispute = book.dispute(charge, status: .lost, amount: 10_000, created: Book.from + 30_000)
        let report = book.reconcile()
        let row = try #require(report.unreversedDisputes.only)
        #expect(row.disputeID == dispute)
        // Recoverable: what the transfers still held when the dispute came, 85.00 less the courier's 10.00 reversed
        // before it (which is no recovery of the dispute).
        #expect((row.recoverable, row.recovered, row.unrecovered) == (7_500, 0, 7_500))
        #expect(row.transferID == nil && row.destinationAccount == nil)

        var recovered = Book()
        let (recoveredCharge, recoveredTransfers) = order(&recovered)
        recovered.dispute(recoveredCharge, status: .lost, amount: 10_000, created: Book.from + 30_000)
        recovered.reverse(recoveredTransfers[0], amount: 6_000, created: Book.from + 40_000)
        recovered.reverse(recoveredTransfers[1], amount: 1_500, created: Book.from + 40_000)
        #expect(recovered.reconcile().unreversedDisputes.isEmpty)
        #expect(transfers.count == 2)
    }

    @Test func aDisputeOnAOneTransferGroupNamesItsTransferAndAccount() throws {
        var book = Book()
        let charge = book.charge(amount: 5_000, style: .plain, transferGroup: "g1")
        let transfer = book.transfer(amount: 4_000, destination: "acct_seller", group: "g1")
        book.dispute(charge, status: .needsResponse, amount: 5_000, created: Book.from + 30_000)
        let row = try #require(book.reconcile().unreversedDisputes.only)
        #expect(row.transferID == transfer)
        #expect(row.destinationAccount == "acct_seller")
        #expect(row.unrecovered == 4_000)
    }
}
