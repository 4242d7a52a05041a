import History
import ReconCore
import StripeAPI

/// The wire model of a catalogued kind (``ObjectKind/entry``): how an object decoded from Stripe's JSON becomes
/// the facts the history stores (`FactsMapping.swift`), and where in an ``ObjectBatch`` they go.
protocol CatalogueObject: StripeObject {
    associatedtype Facts: ObjectFacts
    /// The batch's list of the kind's objects.
    static var batchList: WritableKeyPath<ObjectBatch, [StoredObject<Facts>]> { get }
    /// When Stripe created the object: the order of its list.
    var created: Int64 { get }
    /// The facts the history stores and the rules read.
    var facts: Facts { get }
}

extension ObjectKind {
    /// The kind's wire model: the one place a kind meets its Swift type.
    var wireModel: any CatalogueObject.Type {
        switch self {
        case .charge: Charge.self
        case .paymentIntent: PaymentIntent.self
        case .applicationFee: ApplicationFee.self
        case .feeRefund: FeeRefund.self
        case .transfer: Transfer.self
        case .transferReversal: TransferReversal.self
        case .balanceTransaction: BalanceTransaction.self
        case .dispute: Dispute.self
        case .refund: Refund.self
        case .payout: Payout.self
        }
    }
}

extension Charge: CatalogueObject {
    static var batchList: WritableKeyPath<ObjectBatch, [StoredObject<ChargeFacts>]> { \.charges }
    var facts: ChargeFacts { ChargeFacts(self) }
}

extension PaymentIntent: CatalogueObject {
    static var batchList: WritableKeyPath<ObjectBatch, [StoredObject<PaymentIntentFacts>]> { \.paymentIntents }
    var facts: PaymentIntentFacts { PaymentIntentFacts(self) }
}

extension ApplicationFee: CatalogueObject {
    static var batchList: WritableKeyPath<ObjectBatch, [StoredObject<ApplicationFeeFacts>]> { \.applicationFees }
    var facts: ApplicationFeeFacts { ApplicationFeeFacts(self) }
}

extension FeeRefund: CatalogueObject {
    static var batchList: WritableKeyPath<ObjectBatch, [StoredObject<FeeRefundFacts>]> { \.feeRefunds }
    var facts: FeeRefundFacts { FeeRefundFacts(self) }
}

extension Transfer: CatalogueObject {
    static var batchList: WritableKeyPath<ObjectBatch, [StoredObject<TransferFacts>]> { \.transfers }
    var facts: TransferFacts { TransferFacts(self) }
}

extension TransferReversal: CatalogueObject {
    static var batchList: WritableKeyPath<ObjectBatch, [StoredObject<TransferReversalFacts>]> { \.transferReversals }
    var facts: TransferReversalFacts { TransferReversalFacts(self) }
}

extension BalanceTransaction: CatalogueObject {
    static var batchList: WritableKeyPath<ObjectBatch, [StoredObject<BalanceTransactionFacts>]> {
        \.balanceTransactions
    }
    var facts: BalanceTransactionFacts { BalanceTransactionFacts(self) }
}

extension Dispute: CatalogueObject {
    static var batchList: WritableKeyPath<ObjectBatch, [StoredObject<DisputeFacts>]> { \.disputes }
    var facts: DisputeFacts { DisputeFacts(self) }
}

extension Refund: CatalogueObject {
    static var batchList: WritableKeyPath<ObjectBatch, [StoredObject<RefundFacts>]> { \.refunds }
    var facts: RefundFacts { RefundFacts(self) }
}

extension Payout: CatalogueObject {
    static var batchList: WritableKeyPath<ObjectBatch, [StoredObject<PayoutFacts>]> { \.payouts }
    var facts: PayoutFacts { PayoutFacts(self) }
}
