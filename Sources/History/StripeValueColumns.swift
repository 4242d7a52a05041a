import GRDB
import ReconCore

// Stripe's open values are stored as the strings Stripe writes (GRDB's `RawRepresentable` support), so a column
// holds `succeeded`, never a number or JSON, and a value Stripe adds later reads back as itself.

extension ChargeStatus: DatabaseValueConvertible {}
extension PaymentIntentStatus: DatabaseValueConvertible {}
extension RefundStatus: DatabaseValueConvertible {}
extension DisputeStatus: DatabaseValueConvertible {}
extension PayoutStatus: DatabaseValueConvertible {}
extension PayoutReconciliationStatus: DatabaseValueConvertible {}
extension BalanceTransactionType: DatabaseValueConvertible {}
extension BalanceTransactionStatus: DatabaseValueConvertible {}
extension BalanceType: DatabaseValueConvertible {}
extension ReportingCategory: DatabaseValueConvertible {}
