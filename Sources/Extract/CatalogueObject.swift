import History
import ReconCore
import StripeAPI

/// The wire model of a catalogued kind (``ObjectKind/entry``): how an object decoded from Stripe's JSON becomes
/// the facts the history stores (`FactsMapping.swift`), stored in a batch as `batch[stored: Facts.self]`.
protocol CatalogueObject: StripeObject {
    associatedtype Facts: ObjectFacts
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
    var facts: ChargeFacts { ChargeFacts(self) }
}

extension PaymentIntent: CatalogueObject {
    var facts: PaymentIntentFacts { PaymentIntentFacts(self) }
}

extension ApplicationFee: CatalogueObject {
    var facts: ApplicationFeeFacts { ApplicationFeeFacts(self) }
}

extension FeeRefund: CatalogueObject {
    var facts: FeeRefundFacts { FeeRefundFacts(self) }
}

extension Transfer: CatalogueObject {
    var facts: TransferFacts { TransferFacts(self) }
}

extension TransferReversal: CatalogueObject {
    var facts: TransferReversalFacts { TransferReversalFacts(self) }
}

extension BalanceTransaction: CatalogueObject {
    var facts: BalanceTransactionFacts { BalanceTransactionFacts(self) }
}

extension Dispute: CatalogueObject {
    var facts: DisputeFacts { DisputeFacts(self) }
}

extension Refund: CatalogueObject {
    var facts: RefundFacts { RefundFacts(self) }
}

extension Payout: CatalogueObject {
    var facts: PayoutFacts { PayoutFacts(self) }
}
