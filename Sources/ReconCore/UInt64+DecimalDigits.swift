extension UInt64 {
    /// Appends the integer's ASCII decimal digits to `bytes`, at least `width` of them (zeros in front).
    ///
    /// The writers' one way to print a whole number as bytes, with no `String` made for it: an amount's units and
    /// decimals (``MinorUnitFormatter``), a timestamp's fields, a count, a sheet's row number (millions a report).
    @inlinable
    public func appendDecimalDigits<Sink: ByteSink & ~Copyable>(minimumWidth width: Int = 1, to bytes: inout Sink) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var value = self
            var count = 0
            repeat {
                count += 1
                buffer[20 - count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            } while value > 0
            for _ in count..<Swift.max(count, width) { bytes.append(UInt8(ascii: "0")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[(20 - count)...]))
        }
    }

    /// 10^0 … 10^19, every power of ten a `UInt64` holds.
    public static let powersOfTen: [UInt64] = (0...19).map { exponent in
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }
}
