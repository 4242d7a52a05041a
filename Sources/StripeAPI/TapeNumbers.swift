import ReconCore

/// Reads JSON number literals (checked by the parse) as Swift integers without making a `String` first.
enum TapeNumbers {
    /// The integer written at `range`, `nil` when it does not fit `T` exactly. A literal with a fraction or an
    /// exponent is accepted when its value is a whole number that fits (`1.0`, `1e2`), as `JSONDecoder` accepts it.
    static func integer<T: FixedWidthInteger>(_ type: T.Type, _ bytes: [UInt8], _ range: Range<Int>) -> T? {
        if let value = int64(bytes, range) { return T(exactly: value) }
        // Beyond `Int64`: only a `UInt64` may still hold it.
        return T.self == UInt64.self
            ? UInt64(String(decoding: bytes[range], as: UTF8.self)).flatMap(T.init(exactly:)) : nil
    }

    /// The literal as an `Int64` (Stripe's amounts and timestamps), read without generic arithmetic; one with a
    /// fraction or an exponent through ``wholeNumber(_:_:)``.
    private static func int64(_ bytes: [UInt8], _ range: Range<Int>) -> Int64? {
        bytes.withUnsafeBufferPointer { bytes in
            let literal = UnsafeBufferPointer(rebasing: bytes[range])
            return Int64(decimalDigits: literal) ?? wholeNumber(Int64.self, String(decoding: literal, as: UTF8.self))
        }
    }

    /// A whole number written with a fraction or an exponent, exactly (below 2^53, where a `Double` is exact).
    private static func wholeNumber<T: FixedWidthInteger>(_ type: T.Type, _ literal: String) -> T? {
        guard let double = Double(literal), double.rounded() == double, abs(double) <= 9_007_199_254_740_992 else {
            return nil
        }
        return T(exactly: double)
    }
}
