/// What the reconciler reads: the facts of a range and of every object it refers to, as the history holds
/// them. No network, no database, no clock: `asOf` is the moment the run treats as now.
public struct ReconciliationInput: Sendable {
    /// `[from, to)` in Unix seconds: which objects are "created in the range".
    public var from: Int64
    public var to: Int64
    /// The run's "now", for the skipped-transfer grace period.
    public var asOf: Int64
    /// Charges younger than this at `asOf` are not yet skipped transfers.
    public var skippedTransferGrace: Int64

    /// The range's objects and everything they refer to (any creation time).
    public var charges: [ChargeFacts]
    public var paymentIntents: [PaymentIntentFacts]
    public var transfers: [TransferFacts]
    public var transferReversals: [TransferReversalFacts]
    public var applicationFees: [ApplicationFeeFacts]
    public var feeRefunds: [FeeRefundFacts]
    public var refunds: [RefundFacts]
    public var disputes: [DisputeFacts]
    public var balanceTransactions: [BalanceTransactionFacts]
    /// Referenced objects Stripe answered 404 for: (kind, id).
    public var missingObjects: [(kind: ObjectKind, id: String)]

    public init(
        from: Int64, to: Int64, asOf: Int64, skippedTransferGrace: Int64, charges: [ChargeFacts] = [],
        paymentIntents: [PaymentIntentFacts] = [], transfers: [TransferFacts] = [],
        transferReversals: [TransferReversalFacts] = [], applicationFees: [ApplicationFeeFacts] = [],
        feeRefunds: [FeeRefundFacts] = [], refunds: [RefundFacts] = [], disputes: [DisputeFacts] = [],
        balanceTransactions: [BalanceTransactionFacts] = [], missingObjects: [(kind: ObjectKind, id: String)] = []
    ) {
        self.from = from
        self.to = to
        self.asOf = asOf
        self.skippedTransferGrace = skippedTransferGrace
        self.charges = charges
        self.paymentIntents = paymentIntents
        self.transfers = transfers
        self.transferReversals = transferReversals
        self.applicationFees = applicationFees
        self.feeRefunds = feeRefunds
        self.refunds = refunds
        self.disputes = disputes
        self.balanceTransactions = balanceTransactions
        self.missingObjects = missingObjects
    }
}
