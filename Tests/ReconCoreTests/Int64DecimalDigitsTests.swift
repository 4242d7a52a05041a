import ReconCore
import Testing

@Suite("Decimal integers read from bytes")
struct Int64DecimalDigitsTests {
    private func read(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBufferPointer { Int64(decimalDigits: $0) }
    }

    /// The text a printer appends to an empty array.
    private func printed(_ append: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        append(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("digits with an optional minus read exactly, to the limits of 64 bits")
    func digitsReadExactly() {
        #expect(read("0") == 0)
        #expect(read("-0") == 0)
        #expect(read("877") == 877)
        #expect(read("-1234") == -1234)
        #expect(read("9223372036854775807") == Int64.max)
        #expect(read("-9223372036854775808") == Int64.min)
    }

    @Test(
        "anything else, or a number beyond 64 bits, is nil",
        arguments: [
            "", "-", "+1", " 1", "1 ", "1.0", "1e2", "0x10", "12a", "9223372036854775808", "-9223372036854775809",
        ])
    func othersAreNil(text: String) {
        #expect(read(text) == nil)
    }

    @Test("whole numbers print as their digits, zero-padded to a width, up to 64 bits; and read back the same")
    func digitsPrintAndReadBack() {
        func printed(_ value: UInt64, width: Int = 1) -> String {
            self.printed { value.appendDecimalDigits(minimumWidth: width, to: &$0) }
        }
        #expect(printed(0) == "0")
        #expect(printed(7, width: 3) == "007")
        #expect(printed(1_234, width: 2) == "1234")
        #expect(printed(0, width: 18) == String(repeating: "0", count: 18))
        #expect(printed(.max) == "18446744073709551615")
        #expect(UInt64.powersOfTen.count == 20 && UInt64.powersOfTen.last == 10_000_000_000_000_000_000)
        for value in [UInt64(0), 9, 10, 99, 100, 1 << 40, UInt64(Int64.max)] {
            #expect(read(printed(value)).map(UInt64.init) == value)
        }
    }

    @Test("signed integers print a minus, then the magnitude's digits zero-padded to a width: String's text at width 1")
    func signedDigitsPrint() {
        func printed(_ value: Int64, width: Int = 1) -> String {
            self.printed { value.appendDecimalDigits(minimumWidth: width, to: &$0) }
        }
        #expect(printed(-42) == "-42")
        #expect(printed(-7, width: 3) == "-007")
        #expect(printed(2026, width: 4) == "2026")
        #expect(printed(.min) == "-9223372036854775808")
        for value in [Int64.min, -1_000, -1, 0, 1, 877, .max] { #expect(printed(value) == String(value)) }
    }
}
