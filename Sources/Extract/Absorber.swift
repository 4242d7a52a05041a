import History
import ReconCore
import StripeAPI

/// Turns decoded Stripe objects, with their exact JSON, into an ``ObjectBatch`` — including every object
/// embedded in them, because Stripe embeds it (a transfer's reversals, a fee's refunds, a dispute's balance
/// transactions) or because the request expanded it (a charge's PaymentIntent, transfer and refunds, a refund's
/// charge, a reversal's balance transaction…), each stored under its own id with its own JSON.
///
/// Each object's JSON is stored with its expansions folded back to ids (``ExpansionFolding``), so the same
/// object has the same bytes however it was fetched.
enum Absorber {
    static func charge(_ charge: Charge, raw: String, into batch: inout ObjectBatch) {
        batch.charges.append(StoredObject(facts: ChargeFacts(charge), rawJSON: ExpansionFolding.charge.fold(raw)))
        embedded(charge.paymentIntent, "payment_intent", in: raw, into: &batch, paymentIntent)
        embedded(charge.transfer, "transfer", in: raw, into: &batch, transfer)
        embedded(charge.applicationFee, "application_fee", in: raw, into: &batch, applicationFee)
        embedded(charge.balanceTransaction, "balance_transaction", in: raw, into: &batch, balanceTransaction)
        if let refunds = charge.refunds {
            items(refunds.data, at: ["refunds", "data"], in: raw, into: &batch, refund)
        }
    }

    static func paymentIntent(_ intent: PaymentIntent, raw: String, into batch: inout ObjectBatch) {
        batch.paymentIntents.append(
            StoredObject(facts: PaymentIntentFacts(intent), rawJSON: ExpansionFolding.paymentIntent.fold(raw)))
    }

    static func transfer(_ transfer: Transfer, raw: String, into batch: inout ObjectBatch) {
        batch.transfers.append(
            StoredObject(facts: TransferFacts(transfer), rawJSON: ExpansionFolding.transfer.fold(raw)))
        items(transfer.reversals.data, at: ["reversals", "data"], in: raw, into: &batch, transferReversal)
        embedded(transfer.balanceTransaction, "balance_transaction", in: raw, into: &batch, balanceTransaction)
        embedded(transfer.sourceTransaction, "source_transaction", in: raw, into: &batch, charge)
    }

    static func transferReversal(_ reversal: TransferReversal, raw: String, into batch: inout ObjectBatch) {
        batch.transferReversals.append(
            StoredObject(facts: TransferReversalFacts(reversal), rawJSON: ExpansionFolding.transferReversal.fold(raw)))
        embedded(reversal.balanceTransaction, "balance_transaction", in: raw, into: &batch, balanceTransaction)
    }

    static func applicationFee(_ fee: ApplicationFee, raw: String, into batch: inout ObjectBatch) {
        batch.applicationFees.append(
            StoredObject(facts: ApplicationFeeFacts(fee), rawJSON: ExpansionFolding.applicationFee.fold(raw)))
        items(fee.refunds.data, at: ["refunds", "data"], in: raw, into: &batch, feeRefund)
        embedded(fee.balanceTransaction, "balance_transaction", in: raw, into: &batch, balanceTransaction)
        embedded(fee.originatingTransaction, "originating_transaction", in: raw, into: &batch, charge)
    }

    static func feeRefund(_ refund: FeeRefund, raw: String, into batch: inout ObjectBatch) {
        batch.feeRefunds.append(
            StoredObject(facts: FeeRefundFacts(refund), rawJSON: ExpansionFolding.feeRefund.fold(raw)))
        embedded(refund.balanceTransaction, "balance_transaction", in: raw, into: &batch, balanceTransaction)
    }

    static func refund(_ refund: Refund, raw: String, into batch: inout ObjectBatch) {
        batch.refunds.append(StoredObject(facts: RefundFacts(refund), rawJSON: ExpansionFolding.refund.fold(raw)))
        embedded(refund.charge, "charge", in: raw, into: &batch, charge)
        embedded(refund.balanceTransaction, "balance_transaction", in: raw, into: &batch, balanceTransaction)
        embedded(refund.transferReversal, "transfer_reversal", in: raw, into: &batch, transferReversal)
        embedded(
            refund.failureBalanceTransaction, "failure_balance_transaction", in: raw, into: &batch, balanceTransaction)
    }

    static func dispute(_ dispute: Dispute, raw: String, into batch: inout ObjectBatch) {
        batch.disputes.append(StoredObject(facts: DisputeFacts(dispute), rawJSON: ExpansionFolding.dispute.fold(raw)))
        items(dispute.balanceTransactions, at: ["balance_transactions"], in: raw, into: &batch, balanceTransaction)
        embedded(dispute.charge, "charge", in: raw, into: &batch, charge)
    }

    static func balanceTransaction(_ transaction: BalanceTransaction, raw: String, into batch: inout ObjectBatch) {
        batch.balanceTransactions.append(
            StoredObject(
                facts: BalanceTransactionFacts(transaction), rawJSON: ExpansionFolding.balanceTransaction.fold(raw)))
    }

    static func payout(_ payout: Payout, raw: String, into batch: inout ObjectBatch) {
        batch.payouts.append(StoredObject(facts: PayoutFacts(payout), rawJSON: ExpansionFolding.payout.fold(raw)))
        embedded(payout.balanceTransaction, "balance_transaction", in: raw, into: &batch, balanceTransaction)
        embedded(
            payout.failureBalanceTransaction, "failure_balance_transaction", in: raw, into: &batch, balanceTransaction)
    }

    /// An item of `GET /v1/balance_transactions?payout=`: the balance transaction, and its link to the payout
    /// (the transaction itself names no payout).
    static func payoutTransaction(
        of payoutID: String
    ) -> (BalanceTransaction, String, inout ObjectBatch) -> Void {
        { transaction, raw, batch in
            balanceTransaction(transaction, raw: raw, into: &batch)
            batch.payoutTransactions.append(
                PayoutTransactionLink(payoutID: payoutID, balanceTransactionID: transaction.id))
        }
    }

    // MARK: Embedded objects

    /// Absorbs the object at `key` of `raw` when the request expanded it.
    private static func embedded<Object: StripeObject>(
        _ reference: Expandable<Object>?, _ key: String, in raw: String, into batch: inout ObjectBatch,
        _ absorb: (Object, String, inout ObjectBatch) -> Void
    ) {
        guard let object = reference?.expanded, let json = EmbeddedJSON.object(at: key, in: raw) else { return }
        absorb(object, json, &batch)
    }

    /// Absorbs the items of the array at `path` of `raw`, each with its own JSON.
    private static func items<Object>(
        _ objects: [Object], at path: [String], in raw: String, into batch: inout ObjectBatch,
        _ absorb: (Object, String, inout ObjectBatch) -> Void
    ) {
        guard !objects.isEmpty else { return }
        for (object, json) in zip(objects, EmbeddedJSON.elements(at: path, in: raw)) { absorb(object, json, &batch) }
    }
}
