extension Int64 {
    /// The integer written in `digits`: an optional `-`, then ASCII decimal digits only (no white space, no `+`, no
    /// fraction or exponent); `nil` when they are none of that or do not fit 64 bits.
    ///
    /// One reader for the decimal integers the tool meets as bytes: JSON number literals (the models' amounts and
    /// timestamps) and PostgreSQL's integer columns in text format.
    public init?(decimalDigits digits: UnsafeBufferPointer<UInt8>) {
        var index = digits.startIndex
        let negative = index < digits.endIndex && digits[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < digits.endIndex else { return nil }
        var value: Int64 = 0
        while index < digits.endIndex {
            let byte = digits[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowTimes, !overflowAdd else { return nil }
            value = next
            index += 1
        }
        self = value
    }

    /// Appends the integer's text to `bytes`: `-` when it is negative, then its magnitude's ASCII decimal digits, at
    /// least `width` of them (``UInt64/appendDecimalDigits(minimumWidth:to:)``); with a width of 1, `String(self)`.
    @inlinable
    public func appendDecimalDigits<Sink: ByteSink & ~Copyable>(minimumWidth width: Int = 1, to bytes: inout Sink) {
        if self < 0 { bytes.append(UInt8(ascii: "-")) }
        magnitude.appendDecimalDigits(minimumWidth: width, to: &bytes)
    }
}
