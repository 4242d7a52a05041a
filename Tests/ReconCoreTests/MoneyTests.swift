import Testing

@testable import ReconCore

@Suite("Money")
struct MoneyTests {
    @Test(
        "renders minor units with exactly the currency's decimals",
        arguments: [
            (Int64(877), "usd", "8.77"),
            (Int64(123), "usd", "1.23"),
            (Int64(5), "usd", "0.05"),
            (Int64(-5), "usd", "-0.05"),
            (Int64(-877), "usd", "-8.77"),
            (Int64(0), "usd", "0.00"),
            (Int64(100_000_000), "eur", "1000000.00"),
            (Int64(877), "jpy", "877"),
            (Int64(-877), "jpy", "-877"),
            (Int64(0), "krw", "0"),
            (Int64(8770), "bhd", "8.770"),
            (Int64(5), "kwd", "0.005"),
            (Int64(-1), "omr", "-0.001"),
            (Int64(500), "isk", "5.00"),
            (Int64(500), "ugx", "5.00"),
            (Int64.max, "usd", "92233720368547758.07"),
            (Int64.min, "usd", "-92233720368547758.08"),
            (Int64.min, "jpy", "-9223372036854775808"),
        ])
    func formatting(minorUnits: Int64, code: String, expected: String) throws {
        let money = Money(minorUnits: minorUnits, currency: try #require(Currency(rawValue: code)))
        #expect(try money.formatted() == expected)
    }

    @Test("adds and subtracts within one currency")
    func arithmeticWithinCurrency() throws {
        let charge = Money(minorUnits: 1000, currency: .usd)
        let transfer = Money(minorUnits: 877, currency: .usd)
        #expect(try charge - transfer == Money(minorUnits: 123, currency: .usd))
        #expect(try transfer + Money(minorUnits: 123, currency: .usd) == charge)
        #expect(try Money.sum([charge, transfer, transfer], in: .usd).minorUnits == 2754)
        #expect(try Money.sum([Money](), in: .jpy) == .zero(.jpy))
        #expect(try Money(minorUnits: 5, currency: .usd).negated().minorUnits == -5)
    }

    @Test("refuses to mix currencies")
    func mixedCurrenciesAreAnError() {
        let dollars = Money(minorUnits: 1000, currency: .usd)
        let yen = Money(minorUnits: 1000, currency: .jpy)
        #expect(throws: MoneyError.currencyMismatch(operation: "add", left: .usd, right: .jpy)) { try dollars + yen }
        #expect(throws: MoneyError.currencyMismatch(operation: "subtract", left: .jpy, right: .usd)) {
            try yen - dollars
        }
        #expect(throws: MoneyError.self) { try Money.sum([dollars, yen], in: .usd) }
    }

    @Test(
        "overflow is an error, never a wrap",
        arguments: [
            (Int64.max, Int64(1), true),
            (Int64.min, Int64(-1), true),
            (Int64.max - 1, Int64(1), false),
        ])
    func overflowIsAnError(left: Int64, right: Int64, overflows: Bool) {
        let a = Money(minorUnits: left, currency: .usd)
        let b = Money(minorUnits: right, currency: .usd)
        if overflows {
            #expect(throws: MoneyError.self) { try a + b }
        } else {
            #expect(throws: Never.self) { try a + b }
        }
    }

    @Test("subtraction and negation overflow at the edges of Int64")
    func subtractionOverflow() {
        #expect(throws: MoneyError.self) {
            try Money(minorUnits: .min, currency: .usd) - Money(minorUnits: 1, currency: .usd)
        }
        #expect(throws: MoneyError.self) { try Money(minorUnits: .min, currency: .usd).negated() }
    }

    @Test("an amount in a currency Stripe does not list cannot be formatted")
    func unknownCurrencyCannotBeFormatted() throws {
        let money = Money(minorUnits: 100, currency: try #require(Currency(rawValue: "xyz")))
        #expect(throws: CurrencyError.unknownCurrency("xyz")) { try money.formatted() }
        #expect(money.description == "100 minor units of xyz")
    }

    @Test("the description is for logs: major units and code")
    func description() {
        #expect(Money(minorUnits: 123, currency: .usd).description == "1.23 usd")
        #expect(Money(minorUnits: 123, currency: .jpy).description == "123 jpy")
    }
}
