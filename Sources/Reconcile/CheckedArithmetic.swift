/// `Int64` arithmetic that reports overflow as `nil` instead of trapping or wrapping. No real Stripe amount comes
/// near 2⁶³ minor units, so an overflow means corrupt data: the caller turns it into an exception row.
enum Checked {
    static func add(_ lhs: Int64, _ rhs: Int64) -> Int64? {
        let (result, overflow) = lhs.addingReportingOverflow(rhs)
        return overflow ? nil : result
    }

    static func subtract(_ lhs: Int64, _ rhs: Int64) -> Int64? {
        let (result, overflow) = lhs.subtractingReportingOverflow(rhs)
        return overflow ? nil : result
    }

    /// The sum of `values`, or `nil` when any partial sum leaves `Int64`.
    static func sum(_ values: some Sequence<Int64>) -> Int64? {
        var total: Int64 = 0
        for value in values {
            guard let next = add(total, value) else { return nil }
            total = next
        }
        return total
    }

    /// `round_half_up(value × numerator / denominator)` in integers (halves round away from zero), computed in
    /// 128 bits so the product never overflows; `nil` when `denominator` is not positive or the result leaves
    /// `Int64`.
    static func roundedHalfUp(_ value: Int64, times numerator: Int64, dividedBy denominator: Int64) -> Int64? {
        guard denominator > 0 else { return nil }
        let divisor = denominator.magnitude
        let product = value.magnitude.multipliedFullWidth(by: numerator.magnitude)
        guard product.high < divisor else { return nil }
        let (quotient, remainder) = divisor.dividingFullWidth(product)
        let (roundedUp, wraps) = quotient.addingReportingOverflow(1)
        let magnitude = remainder >= divisor - remainder ? roundedUp : quotient
        let negative = (value < 0) != (numerator < 0) && magnitude != 0
        guard !wraps || remainder < divisor - remainder, magnitude <= UInt64(Int64.max) else { return nil }
        return negative ? -Int64(magnitude) : Int64(magnitude)
    }
}
