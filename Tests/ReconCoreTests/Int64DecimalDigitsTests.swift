import ReconCore
import Testing

@Suite("Decimal integers read from bytes")
struct Int64DecimalDigitsTests {
    private func read(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBufferPointer { Int64(decimalDigits: $0) }
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
}
