import ReconCore
import Reconcile
import Testing

/// Zero- and three-decimal currencies, charges that settle in another currency, and totals that never mix them.
@Suite struct CurrencyTests {
    @Test func aYenChargeCountsInWholeYen() throws {
        // Given ¥5000 with an application fee of ¥500 and a Stripe fee of ¥180
        var book = Book()
        let charge = book.charge(amount: 5_000, currency: .jpy, style: .applicationFee, retained: 500, stripeFee: 180)
        // When reconciled
        let row = try #require(book.reconcile().platformFees.first { $0.chargeID == charge })
        // Then DPF ¥500 and net 4820 − 5000 + 500 = ¥320
        #expect(row.currency == .jpy)
        #expect(row.destinationPlatformFee == 500)
        #expect(row.platformNet == 320)
    }

    @Test func aBahrainiDinarChargeCountsInFils() throws {
        // Given 12.340 bhd with transfer_data[amount] 11.110 (retained 1.230), 4.110 refunded with a proportional
        // reversal of 11110 × 4110 / 12340 = 3700.3 → 3.700
        var book = Book()
        let charge = book.charge(
            amount: 12_340, currency: .bhd, style: .transferAmount, retained: 1_230, stripeFee: 660)
        book.refund(charge, amount: 4_110, reversal: 3_700)
        // When reconciled
        let row = try #require(book.reconcile().platformFees.first)
        // Then DPF = (12340 − 4110) − (11110 − 3700) = 820 fils, and net 11680 − 11110 − 4110 + 3700 = 160
        #expect(row.chargeID == charge)
        #expect(row.destinationPlatformFee == 820)
        #expect(row.platformNet == 160)
    }

    @Test func aEuroChargeSettledInDollarsKeepsEachFigureInItsCurrency() throws {
        // Given 10.00 eur with an application fee of 1.23 eur, settled in usd at 1.08: charge BT 10.80 usd with a
        // fee of 0.61 usd, transfer BT −10.80 usd, application fee BT +1.33 usd (1.2284 rounded)
        var book = Book()
        let settlement = Book.Settlement(currency: .usd, rateMillionths: 1_080_000)
        let charge = book.charge(
            amount: 1_000, currency: .eur, style: .applicationFee, retained: 123, stripeFee: 61, settlement: settlement)
        // When reconciled
        let report = book.reconcile()
        let row = try #require(report.platformFees.first { $0.chargeID == charge })
        // Then the DPF is in eur and the Stripe fee and net in usd: 1019 − 1080 + 133 = 72
        #expect(row.currency == .eur)
        #expect(row.destinationPlatformFee == 123)
        #expect(row.settlementCurrency == .usd)
        #expect(row.stripeFee == 61)
        #expect(row.platformNet == 72)
        // and the summary puts the charge in the eur row and its Stripe fee in the usd row
        let eur = try #require(report.summary.first { $0.currency == .eur })
        let usd = try #require(report.summary.first { $0.currency == .usd })
        #expect(eur.destinationCharges == 1)
        #expect(eur.gross == 1_000)
        #expect(eur.destinationPlatformFee == 123)
        #expect(eur.stripeFee == 0)
        #expect(usd.destinationCharges == 0)
        #expect(usd.stripeFee == 61)
        // and the ledger is all usd
        #expect(report.ledger.allSatisfy { $0.currency == .usd })
    }

    @Test func balanceTransactionsInTwoCurrenciesAreNeverAddedUp() throws {
        // Given a usd charge whose refund was booked in gbp (inconsistent data)
        var book = Book()
        let charge = book.charge(style: .fullTransfer)
        book.refund(
            charge, amount: 100, reversal: 100, settlement: Book.Settlement(currency: .gbp, rateMillionths: 800_000))
        // When reconciled
        let row = try #require(book.reconcile().platformFees.first)
        // Then the net is unknown rather than a sum of dollars and pounds; the Stripe fee is still known
        #expect(row.platformNet == nil)
        #expect(row.settlementCurrency == .usd)
        #expect(row.stripeFee == 59)
    }

    @Test func theSummaryHasOneRowPerCurrencyAndNeverMixesThem() {
        // Given charges in usd, jpy and bhd
        var book = Book()
        book.charge(amount: 1_000, currency: .usd, style: .applicationFee, retained: 123)
        book.charge(amount: 2_000, currency: .usd, style: .transferAmount, retained: 300)
        book.charge(amount: 5_000, currency: .jpy, style: .applicationFee, retained: 500, stripeFee: 180)
        book.charge(amount: 12_340, currency: .bhd, style: .fullTransfer, stripeFee: 660)
        // When reconciled
        let summary = book.reconcile().summary
        // Then each currency adds only its own charges
        #expect(summary.map(\.currency) == [.bhd, .jpy, .usd])
        #expect(summary.map(\.gross) == [12_340, 5_000, 3_000])
        #expect(summary.map(\.destinationPlatformFee) == [0, 500, 423])
        #expect(summary.map(\.stripeFee) == [660, 180, 118])
        #expect(summary.map(\.destinationCharges) == [1, 1, 2])
    }
}
