extension Renderer {
    // MARK: Refunds

    /// A refund; one that failed also has `failure_balance_transaction` and `failure_reason` (absent otherwise, as
    /// Stripe leaves them out).
    func refund(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let r = storage.refunds
        let charge = Int(r.charge[i])
        let bankDebit = storage.charges.method[charge] == .bankDebit
        let failed = r.failed(i)
        w.object {
            w.field("amount", r.amount[i])
            reference(
                "balance_transaction", w, expand, "balance_transaction",
                optional(r.balanceTransaction[i], ObjectRef.balanceTransaction))
            reference("charge", w, expand, "charge", .charge(charge))
            w.field("created", r.created[i])
            w.field("currency", storage.charges.currency[charge].code)
            w.field("destination_details") {
                if bankDebit {
                    w.field("type", "us_bank_account")
                    w.emptyObject("us_bank_account")
                } else {
                    w.field("card") {
                        w.field("reference", String(7_000_000_000 + i))
                        w.field("reference_status", "available")
                        w.field("reference_type", "acquirer_reference_number")
                        w.field("type", "refund")
                    }
                    w.field("type", "card")
                }
            }
            if failed {
                reference(
                    "failure_balance_transaction", w, expand, "failure_balance_transaction",
                    .balanceTransaction(Int(r.failureBalanceTransaction[i])))
                w.field("failure_reason", RefundTable.failureReasons[Int(r.failureReason[i])])
            }
            w.field("id", id: .refund, i)
            w.emptyObject("metadata")
            w.field("object", "refund")
            reference("payment_intent", w, expand, "payment_intent", .paymentIntent(charge))
            w.field("reason", "requested_by_customer")
            w.nullField("receipt_number")
            w.nullField("source_transfer_reversal")
            w.field("status", failed ? "failed" : "succeeded")
            reference(
                "transfer_reversal", w, expand, "transfer_reversal",
                optional(r.transferReversal[i], ObjectRef.transferReversal))
            w.nullField("customer")
            w.nullField("customer_account")
            w.field("payment_method", id: .paymentMethod, charge)
        }
    }
}
