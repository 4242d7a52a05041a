/// The rules' names for the facts lists of ``ObjectLists``: `objects.charges` is `objects[ChargeFacts.self]`.
/// Names only: a kind without one here is held, stored and read all the same.
extension ObjectLists {
    public var charges: [ChargeFacts] {
        get { self[ChargeFacts.self] }
        _modify { yield &self[ChargeFacts.self] }
    }
    public var paymentIntents: [PaymentIntentFacts] {
        get { self[PaymentIntentFacts.self] }
        _modify { yield &self[PaymentIntentFacts.self] }
    }
    public var transfers: [TransferFacts] {
        get { self[TransferFacts.self] }
        _modify { yield &self[TransferFacts.self] }
    }
    public var transferReversals: [TransferReversalFacts] {
        get { self[TransferReversalFacts.self] }
        _modify { yield &self[TransferReversalFacts.self] }
    }
    public var applicationFees: [ApplicationFeeFacts] {
        get { self[ApplicationFeeFacts.self] }
        _modify { yield &self[ApplicationFeeFacts.self] }
    }
    public var feeRefunds: [FeeRefundFacts] {
        get { self[FeeRefundFacts.self] }
        _modify { yield &self[FeeRefundFacts.self] }
    }
    public var refunds: [RefundFacts] {
        get { self[RefundFacts.self] }
        _modify { yield &self[RefundFacts.self] }
    }
    public var disputes: [DisputeFacts] {
        get { self[DisputeFacts.self] }
        _modify { yield &self[DisputeFacts.self] }
    }
    public var balanceTransactions: [BalanceTransactionFacts] {
        get { self[BalanceTransactionFacts.self] }
        _modify { yield &self[BalanceTransactionFacts.self] }
    }
    public var payouts: [PayoutFacts] {
        get { self[PayoutFacts.self] }
        _modify { yield &self[PayoutFacts.self] }
    }
}
