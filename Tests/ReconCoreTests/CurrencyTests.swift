import Foundation
import Testing

@testable import ReconCore

@Suite("Currency")
struct CurrencyTests {
    @Test(
        "exponents follow Stripe's table, not ISO 4217",
        arguments: [
            ("usd", 2), ("eur", 2), ("gbp", 2), ("jpy", 0), ("krw", 0), ("vnd", 0), ("clp", 0), ("xof", 0),
            ("mga", 0), ("bhd", 3), ("jod", 3), ("kwd", 3), ("omr", 3), ("tnd", 3),
            // ISO says 0 for ISK and UGX, but Stripe's API amounts carry two decimals.
            ("isk", 2), ("ugx", 2), ("huf", 2), ("twd", 2),
        ])
    func exponent(code: String, exponent: Int) throws {
        #expect(try #require(Currency(rawValue: code)).exponent == exponent)
    }

    @Test("codes are normalised to lower case", arguments: ["USD", "Usd", "usd"])
    func lowerCase(code: String) throws {
        #expect(try #require(Currency(rawValue: code)) == .usd)
    }

    @Test("malformed codes are refused", arguments: ["", "us", "usdx", "u$d", "12a", "ü12"])
    func malformed(code: String) {
        #expect(Currency(rawValue: code) == nil)
        #expect(throws: CurrencyError.malformedCode(code)) { try Currency(code: code) }
    }

    @Test("a well-formed code Stripe does not list has no exponent")
    func unknownCode() throws {
        let currency = try #require(Currency(rawValue: "zzz"))
        #expect(currency.exponent == nil)
        #expect(throws: CurrencyError.unknownCurrency("zzz")) { try currency.requireExponent() }
    }

    @Test("decodes from JSON and refuses a malformed code")
    func decoding() throws {
        let decoded = try JSONDecoder().decode([Currency].self, from: Data(#"["usd","JPY"]"#.utf8))
        #expect(decoded == [.usd, .jpy])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Currency].self, from: Data(#"["us"]"#.utf8)) }
    }

    @Test("every listed code has its list's exponent; a string that is not three lower-case letters has none")
    func exponentLookup() {
        for (codes, exponent) in [
            (CurrencyTable.twoDecimal, 2), (CurrencyTable.zeroDecimal, 0), (CurrencyTable.threeDecimal, 3),
        ] {
            for code in codes { #expect(CurrencyTable.exponent(of: code) == exponent, "\(code)") }
        }
        for code in ["", "us", "usdd", "USD", "uSd", "u$d", "zzz", "us\u{301}", "ü"] {
            #expect(CurrencyTable.exponent(of: code) == nil, "\(code)")
        }
    }

    @Test("no code is listed twice with different exponents")
    func tableIsConsistent() {
        #expect(CurrencyTable.twoDecimal.isDisjoint(with: CurrencyTable.zeroDecimal))
        #expect(CurrencyTable.twoDecimal.isDisjoint(with: CurrencyTable.threeDecimal))
        #expect(CurrencyTable.zeroDecimal.isDisjoint(with: CurrencyTable.threeDecimal))
    }
}
