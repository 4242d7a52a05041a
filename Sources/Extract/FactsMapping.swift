import ReconCore
import StripeAPI

// The one place Stripe's wire models become the facts the history stores and the reconciler reads.

/// The wire model of every catalogued kind.
let catalogueObjects: [any CatalogueObject.Type] = [
    Charge.self, PaymentIntent.self, ApplicationFee.self, FeeRefund.self, Transfer.self, TransferReversal.self,
    BalanceTransaction.self, Dispute.self, Refund.self, Payout.self,
]

extension Charge: CatalogueObject {
    var facts: ChargeFacts { ChargeFacts(self) }
}

extension ChargeFacts {
    init(_ charge: Charge) {
        self.init(
            id: charge.id, created: charge.created, currency: charge.currency, amount: charge.amount,
            amountCaptured: charge.amountCaptured, amountRefunded: charge.amountRefunded,
            status: charge.status, captured: charge.captured, paymentIntentID: charge.paymentIntent?.id,
            transferID: charge.transfer?.id, applicationFeeID: charge.applicationFee?.id,
            applicationFeeAmount: charge.applicationFeeAmount,
            destinationAccountID: charge.transferData?.destinationAccountID,
            transferDataAmount: charge.transferData?.amount, balanceTransactionID: charge.balanceTransaction?.id,
            livemode: charge.livemode, transferGroup: charge.transferGroup, disputed: charge.disputed,
            onBehalfOf: charge.onBehalfOf?.id, paymentMethodType: charge.paymentMethodDetails?.type,
            sourceID: charge.source?.id,
            metadata: charge.paymentMethodDetails?.type == ChargeFacts.accountDebitMethod ? charge.metadata : [:])
    }
}

extension PaymentIntent: CatalogueObject {
    var facts: PaymentIntentFacts { PaymentIntentFacts(self) }
}

extension PaymentIntentFacts {
    init(_ intent: PaymentIntent) {
        self.init(
            id: intent.id, created: intent.created, currency: intent.currency, amount: intent.amount,
            applicationFeeAmount: intent.applicationFeeAmount,
            destinationAccountID: intent.transferData?.destinationAccountID,
            transferDataAmount: intent.transferData?.amount, status: intent.status,
            latestChargeID: intent.latestCharge?.id, livemode: intent.livemode, transferGroup: intent.transferGroup)
    }
}

extension Transfer: CatalogueObject {
    var facts: TransferFacts { TransferFacts(self) }
}

extension TransferFacts {
    init(_ transfer: Transfer) {
        self.init(
            id: transfer.id, created: transfer.created, currency: transfer.currency, amount: transfer.amount,
            amountReversed: transfer.amountReversed, destinationAccountID: transfer.destinationAccountID,
            sourceTransactionID: transfer.sourceTransaction?.id, balanceTransactionID: transfer.balanceTransaction?.id,
            transferGroup: transfer.transferGroup, disputeIDMetadata: transfer.metadata["dispute_id"],
            livemode: transfer.livemode)
    }
}

extension TransferReversal: CatalogueObject {
    var facts: TransferReversalFacts { TransferReversalFacts(self) }
}

extension TransferReversalFacts {
    init(_ reversal: TransferReversal) {
        self.init(
            id: reversal.id, transferID: reversal.transfer.id, created: reversal.created, currency: reversal.currency,
            amount: reversal.amount, sourceRefundID: reversal.sourceRefund?.id,
            balanceTransactionID: reversal.balanceTransaction?.id, disputeIDMetadata: reversal.metadata["dispute_id"])
    }
}

extension ApplicationFee: CatalogueObject {
    var facts: ApplicationFeeFacts { ApplicationFeeFacts(self) }
}

extension ApplicationFeeFacts {
    init(_ fee: ApplicationFee) {
        self.init(
            id: fee.id, created: fee.created, currency: fee.currency, amount: fee.amount,
            amountRefunded: fee.amountRefunded, originatingChargeID: fee.originatingTransaction?.id,
            accountID: fee.account.id, balanceTransactionID: fee.balanceTransaction?.id, livemode: fee.livemode)
    }
}

extension FeeRefund: CatalogueObject {
    var facts: FeeRefundFacts { FeeRefundFacts(self) }
}

extension FeeRefundFacts {
    init(_ refund: FeeRefund) {
        self.init(
            id: refund.id, feeID: refund.fee.id, created: refund.created, currency: refund.currency,
            amount: refund.amount,
            balanceTransactionID: refund.balanceTransaction?.id)
    }
}

extension Refund: CatalogueObject {
    var facts: RefundFacts { RefundFacts(self) }
}

extension RefundFacts {
    init(_ refund: Refund) {
        self.init(
            id: refund.id, chargeID: refund.charge?.id, created: refund.created, currency: refund.currency,
            amount: refund.amount, status: refund.status, transferReversalID: refund.transferReversal?.id,
            balanceTransactionID: refund.balanceTransaction?.id,
            failureBalanceTransactionID: refund.failureBalanceTransaction?.id, failureReason: refund.failureReason,
            reason: refund.reason)
    }
}

extension Dispute: CatalogueObject {
    var facts: DisputeFacts { DisputeFacts(self) }
}

extension DisputeFacts {
    init(_ dispute: Dispute) {
        self.init(
            id: dispute.id, chargeID: dispute.charge.id, created: dispute.created, currency: dispute.currency,
            amount: dispute.amount, status: dispute.status,
            balanceTransactionIDs: dispute.balanceTransactions.map(\.id))
    }
}

extension BalanceTransaction: CatalogueObject {
    var facts: BalanceTransactionFacts { BalanceTransactionFacts(self) }
}

extension BalanceTransactionFacts {
    init(_ transaction: BalanceTransaction) {
        self.init(
            id: transaction.id, created: transaction.created, currency: transaction.currency,
            amount: transaction.amount, fee: transaction.fee, net: transaction.net, type: transaction.type,
            reportingCategory: transaction.reportingCategory, sourceID: transaction.source?.id,
            exchangeRate: transaction.exchangeRate, status: transaction.status,
            availableOn: transaction.availableOn, balanceType: transaction.balanceType,
            description: transaction.description)
    }
}

extension Payout: CatalogueObject {
    var facts: PayoutFacts { PayoutFacts(self) }
}

extension PayoutFacts {
    init(_ payout: Payout) {
        self.init(
            id: payout.id, created: payout.created, currency: payout.currency, amount: payout.amount,
            arrivalDate: payout.arrivalDate, status: payout.status, automatic: payout.automatic,
            balanceTransactionID: payout.balanceTransaction?.id,
            failureBalanceTransactionID: payout.failureBalanceTransaction?.id, failureCode: payout.failureCode,
            livemode: payout.livemode, reconciliationStatus: payout.reconciliationStatus)
    }
}
