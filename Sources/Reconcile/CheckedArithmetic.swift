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
}
