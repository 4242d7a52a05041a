/// Stripe's decimals per currency (https://docs.stripe.com/currencies, "Minor units in API amounts").
///
/// - Zero-decimal: the API amount is whole units (`jpy` 877 is ¥877).
/// - Three-decimal: the API amount has three minor digits (`bhd` 8770 is 8.770 BHD; Stripe requires the
///   last digit to be 0).
/// - Two-decimal: every other currency Stripe supports. ISK and UGX are zero-decimal for people but Stripe's
///   API still takes them with two decimals ("evenly divisible by 100"), so their API exponent is 2; HUF and
///   TWD likewise are two-decimal in charges.
/// Retired codes (`hrk`, `ltl`, `sll`, …) stay listed because old objects in a history keep them.
enum CurrencyTable {
    static let zeroDecimal: Set<String> = [
        "bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "vnd", "vuv", "xaf", "xof", "xpf",
    ]

    static let threeDecimal: Set<String> = ["bhd", "jod", "kwd", "omr", "tnd"]

    static let twoDecimal: Set<String> = [
        "aed", "afn", "all", "amd", "ang", "aoa", "ars", "aud", "awg", "azn", "bam", "bbd", "bdt", "bgn", "bmd",
        "bnd", "bob", "brl", "bsd", "btn", "bwp", "byn", "bzd", "cad", "cdf", "chf", "cny", "cop", "crc", "cve",
        "czk", "dkk", "dop", "dzd", "eek", "egp", "etb", "eur", "fjd", "fkp", "gbp", "gel", "ghs", "gip", "gmd",
        "gtq", "gyd", "hkd", "hnl", "hrk", "htg", "huf", "idr", "ils", "inr", "isk", "jmd", "kes", "kgs", "khr",
        "kyd", "kzt", "lak", "lbp", "lkr", "lrd", "lsl", "ltl", "lvl", "mad", "mdl", "mkd", "mmk", "mnt", "mop",
        "mro", "mru", "mur", "mvr", "mwk", "mxn", "myr", "mzn", "nad", "ngn", "nio", "nok", "npr", "nzd", "pab",
        "pen", "pgk", "php", "pkr", "pln", "qar", "ron", "rsd", "rub", "sar", "sbd", "scr", "sek", "sgd", "shp",
        "sle", "sll", "sos", "srd", "std", "stn", "svc", "szl", "thb", "tjs", "top", "try", "ttd", "twd", "tzs",
        "uah", "ugx", "usd", "uyu", "uzs", "vef", "ves", "wst", "xcd", "xcg", "yer", "zar", "zmw",
    ]

    /// The exponent of a lower-case code, or `nil` when Stripe's table does not list it.
    ///
    /// One array read for a three-letter code, no hashing: it runs for every amount cell a report writes (millions a
    /// month), in both writers.
    static func exponent(of code: String) -> Int? {
        guard let index = index(of: code) else { return nil }
        let exponent = exponents[index]
        return exponent < 0 ? nil : Int(exponent)
    }

    /// Every three-letter code's exponent by ``index(of:)``, `-1` where the table lists none.
    private static let exponents: [Int8] = {
        var exponents = [Int8](repeating: -1, count: 26 * 26 * 26)
        for (codes, exponent) in [(twoDecimal, Int8(2)), (zeroDecimal, 0), (threeDecimal, 3)] {
            for code in codes {
                guard let index = index(of: code) else { preconditionFailure("\(code) is not a three-letter code") }
                exponents[index] = exponent
            }
        }
        return exponents
    }()

    /// The position of a code of three lower-case ASCII letters in ``exponents``; `nil` for any other string.
    private static func index(of code: String) -> Int? {
        var index = 0
        var letters = 0
        for byte in code.utf8 {
            guard letters < 3, byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") else { return nil }
            index = index * 26 + Int(byte - UInt8(ascii: "a"))
            letters += 1
        }
        return letters == 3 ? index : nil
    }
}
