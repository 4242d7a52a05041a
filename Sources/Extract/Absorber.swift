import History
import ReconCore
import StripeAPI

/// Turns decoded Stripe objects, with their exact JSON, into an ``ObjectBatch`` — including the objects
/// embedded in them (an expanded PaymentIntent, a transfer's reversals, a fee's refunds, a dispute's
/// balance transactions), each stored under its own id with its own exact JSON.
enum Absorber {
    static func charge(_ charge: Charge, raw: String, into batch: inout ObjectBatch) {
        batch.charges.append(StoredObject(facts: ChargeFacts(charge), rawJSON: raw))
        if let intent = charge.paymentIntent?.expanded, let intentJSON = EmbeddedJSON.object(at: "payment_intent", in: raw) {
            batch.paymentIntents.append(StoredObject(facts: PaymentIntentFacts(intent), rawJSON: intentJSON))
        }
    }

    static func paymentIntent(_ intent: PaymentIntent, raw: String, into batch: inout ObjectBatch) {
        batch.paymentIntents.append(StoredObject(facts: PaymentIntentFacts(intent), rawJSON: raw))
    }

    static func transfer(_ transfer: Transfer, raw: String, into batch: inout ObjectBatch) {
        batch.transfers.append(StoredObject(facts: TransferFacts(transfer), rawJSON: raw))
        let raws = EmbeddedJSON.elements(at: ["reversals", "data"], in: raw)
        for (reversal, reversalJSON) in zip(transfer.reversals.data, raws) {
            batch.transferReversals.append(StoredObject(facts: TransferReversalFacts(reversal), rawJSON: reversalJSON))
        }
    }

    static func transferReversal(_ reversal: TransferReversal, raw: String, into batch: inout ObjectBatch) {
        batch.transferReversals.append(StoredObject(facts: TransferReversalFacts(reversal), rawJSON: raw))
    }

    static func applicationFee(_ fee: ApplicationFee, raw: String, into batch: inout ObjectBatch) {
        batch.applicationFees.append(StoredObject(facts: ApplicationFeeFacts(fee), rawJSON: raw))
        let raws = EmbeddedJSON.elements(at: ["refunds", "data"], in: raw)
        for (refund, refundJSON) in zip(fee.refunds.data, raws) {
            batch.feeRefunds.append(StoredObject(facts: FeeRefundFacts(refund), rawJSON: refundJSON))
        }
    }

    static func feeRefund(_ refund: FeeRefund, raw: String, into batch: inout ObjectBatch) {
        batch.feeRefunds.append(StoredObject(facts: FeeRefundFacts(refund), rawJSON: raw))
    }

    static func refund(_ refund: Refund, raw: String, into batch: inout ObjectBatch) {
        batch.refunds.append(StoredObject(facts: RefundFacts(refund), rawJSON: raw))
    }

    static func dispute(_ dispute: Dispute, raw: String, into batch: inout ObjectBatch) {
        batch.disputes.append(StoredObject(facts: DisputeFacts(dispute), rawJSON: raw))
        let raws = EmbeddedJSON.elements(at: ["balance_transactions"], in: raw)
        for (transaction, transactionJSON) in zip(dispute.balanceTransactions, raws) {
            batch.balanceTransactions.append(
                StoredObject(facts: BalanceTransactionFacts(transaction), rawJSON: transactionJSON))
        }
    }

    static func balanceTransaction(_ transaction: BalanceTransaction, raw: String, into batch: inout ObjectBatch) {
        batch.balanceTransactions.append(StoredObject(facts: BalanceTransactionFacts(transaction), rawJSON: raw))
    }
}
