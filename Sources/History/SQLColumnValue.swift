import ReconCore

/// A Swift type a history column holds: bound to a statement as an ``SQLValue``, read back from an ``SQLRow``.
protocol SQLColumnValue {
    /// The value to bind.
    var sqlValue: SQLValue { get }
    /// Reads the value of column `index` of `row`; throws for NULL, or a value that is not of this type.
    init(row: SQLRow, at index: Int) throws
}

extension Int64: SQLColumnValue {
    var sqlValue: SQLValue { .integer(self) }
    init(row: SQLRow, at index: Int) throws { self = try row.int64(index) }
}

extension Int: SQLColumnValue {
    var sqlValue: SQLValue { .integer(Int64(self)) }
    init(row: SQLRow, at index: Int) throws { self = Int(try row.int64(index)) }
}

extension String: SQLColumnValue {
    var sqlValue: SQLValue { .text(self) }
    init(row: SQLRow, at index: Int) throws { self = try row.text(index) }
}

extension Bool: SQLColumnValue {
    var sqlValue: SQLValue { .boolean(self) }
    init(row: SQLRow, at index: Int) throws { self = try row.bool(index) }
}

extension Double: SQLColumnValue {
    var sqlValue: SQLValue { .real(self) }
    init(row: SQLRow, at index: Int) throws { self = try row.double(index) }
}

extension Optional: SQLColumnValue where Wrapped: SQLColumnValue {
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
    init(row: SQLRow, at index: Int) throws {
        self = row.isNull(index) ? nil : try Wrapped(row: row, at: index)
    }
}

// Stripe's open values are stored as the strings Stripe writes, so a column holds `succeeded`, never a number or
// JSON, and a value Stripe adds later reads back as itself.
extension StripeEnum where Self: SQLColumnValue {
    var sqlValue: SQLValue { .text(rawValue) }
    init(row: SQLRow, at index: Int) throws { self.init(rawValue: try row.text(index)) }
}

extension ChargeStatus: SQLColumnValue {}
extension PaymentIntentStatus: SQLColumnValue {}
extension RefundStatus: SQLColumnValue {}
extension RefundReason: SQLColumnValue {}
extension DisputeStatus: SQLColumnValue {}
extension PayoutStatus: SQLColumnValue {}
extension PayoutReconciliationStatus: SQLColumnValue {}
extension BalanceTransactionType: SQLColumnValue {}
extension BalanceTransactionStatus: SQLColumnValue {}
extension BalanceType: SQLColumnValue {}
extension ReportingCategory: SQLColumnValue {}

// A currency column holds Stripe's lower-case code; a value that is not a three-letter code is an error.
extension Currency: SQLColumnValue {
    var sqlValue: SQLValue { .text(rawValue) }
    init(row: SQLRow, at index: Int) throws { self = try FactsColumn.currency(row, index) }
}
