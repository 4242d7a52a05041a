import GRDB
import ReconCore

// Stripe's open values are stored as the strings Stripe writes (GRDB's `RawRepresentable` support), so a column
// holds `succeeded`, never a number or JSON, and a value Stripe adds later reads back as itself. They read straight
// from the statement (`StatementColumnConvertible`), as a `String` does: the generic path through `DatabaseValue`
// was a tenth of the time it took to read a reconcile's parts.

extension ChargeStatus: DatabaseValueConvertible, StatementColumnConvertible {}
extension PaymentIntentStatus: DatabaseValueConvertible, StatementColumnConvertible {}
extension RefundStatus: DatabaseValueConvertible, StatementColumnConvertible {}
extension DisputeStatus: DatabaseValueConvertible, StatementColumnConvertible {}
extension PayoutStatus: DatabaseValueConvertible, StatementColumnConvertible {}
extension PayoutReconciliationStatus: DatabaseValueConvertible, StatementColumnConvertible {}
extension BalanceTransactionType: DatabaseValueConvertible, StatementColumnConvertible {}
extension BalanceTransactionStatus: DatabaseValueConvertible, StatementColumnConvertible {}
extension BalanceType: DatabaseValueConvertible, StatementColumnConvertible {}
extension ReportingCategory: DatabaseValueConvertible, StatementColumnConvertible {}
