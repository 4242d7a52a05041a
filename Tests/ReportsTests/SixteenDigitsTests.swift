import CXlsxWriter
import Testing

@testable import Reports

/// ``SixteenDigits`` against C's own `%.16G`, which libxlsxwriter prints number cells with.
@Suite("Numbers printed as libxlsxwriter prints them")
struct SixteenDigitsTests {
    static func swift(_ value: Double) -> String {
        var bytes: [UInt8] = []
        SixteenDigits.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func c(_ value: Double) -> String {
        var bytes: [UInt8] = []
        SixteenDigits.appendByC(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("every second's Excel serial from 1970 to 2100, sampled, prints as C prints it")
    func dateTimesPrintAsCPrintsThem() {
        var generator = SystemRandomNumberGenerator()
        var mismatches: [Int64] = []
        for _ in 0..<300_000 {
            let seconds = Int64.random(in: 0..<4_102_444_800, using: &generator)
            let serial = lxw_unixtime_to_excel_date(seconds)
            if Self.swift(serial) != Self.c(serial) { mismatches.append(seconds) }
        }
        // A day's first seconds, and the report ranges' own.
        for seconds in Int64(1_764_000_000)..<1_764_000_000 + 86_400 {
            let serial = lxw_unixtime_to_excel_date(seconds)
            if Self.swift(serial) != Self.c(serial) { mismatches.append(seconds) }
        }
        #expect(
            mismatches.isEmpty, "\(mismatches.prefix(5).map { "\($0): \(Self.c(lxw_unixtime_to_excel_date($0)))" })")
    }

    @Test("numbers of every size, ties and carries print as C prints them")
    func numbersPrintAsCPrintsThem() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [
            1, 9.95, 87.35, 0.1, 0.5, 1.5, 2.5, 4.203250518, 99_999.999_999_999_99, 9_999_999_999_999.999,
            999_999_999_999_999.9, 1e15, 1e15 - 0.125, 123_456_789_012_345.6, 46_296.003_622_685_18, -46_296.25,
            -0.25, 0, -0, 1e-7, 1e300, .infinity, -.infinity, .nan, .ulpOfOne, 1 + .ulpOfOne, 2 - .ulpOfOne,
        ]
        for _ in 0..<300_000 {
            let magnitude = Double.random(in: 0...15, using: &generator)
            values.append(Double.random(in: 1...10, using: &generator) * Double.pow10(Int(magnitude)))
            values.append(Double(Int64.random(in: 1..<1_000_000_000, using: &generator)) / 100)
        }
        let mismatches = values.filter { Self.swift($0) != Self.c($0) }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5).map { "\($0): \(Self.swift($0)) vs \(Self.c($0))" })")
    }
}

extension Double {
    fileprivate static func pow10(_ exponent: Int) -> Double {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }
}
