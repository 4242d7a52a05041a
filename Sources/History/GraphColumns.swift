import ReconCore

/// The columns of the object graph the history's SQL follows (the gaps, money moved by hand, the look-back's states),
/// as the catalogue declares them.
enum GraphColumns {
    static let refundCharge = ObjectKind.refund.entry.edge(to: .charge).column
    static let disputeCharge = ObjectKind.dispute.entry.edge(to: .charge).column
    static let reversalTransfer = ObjectKind.transferReversal.entry.edge(to: .transfer).column
    static let feeRefundFee = ObjectKind.feeRefund.entry.edge(to: .applicationFee).column
    static let repaymentDispute = ObjectKind.transfer.entry.edge(to: .dispute).column
    static let chargeTransfer = ObjectKind.charge.entry.column(of: "transfer")
    static let chargeFee = ObjectKind.charge.entry.column(of: "application_fee")
    static let chargeIntent = ObjectKind.charge.entry.column(of: "payment_intent")
    static let transferSource = ObjectKind.transfer.entry.column(of: "source_transaction")
}
