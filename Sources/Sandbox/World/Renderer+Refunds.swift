extension Renderer {
    // MARK: Refunds

    /// A refund; one that failed also has `failure_balance_transaction` and `failure_reason` (absent otherwise, as
    /// Stripe leaves them out). The refund of an uncaptured remainder has `reason` null (a partial capture's) or
    /// `expired_uncaptured_charge` (an expired authorisation's, with no balance transaction).
    func refund(_ index: Int, _ writer: JSONWriter, _ expand: ExpandTree) {
        let r = storage.refunds
        let charge = Int(r.charge[index])
        let bankDebit = storage.charges.method[charge] == .bankDebit
        let failed = r.failed(index)
        writer.object {
            writer.field("amount", r.amount[index])
            reference(
                "balance_transaction", writer, expand, "balance_transaction",
                optional(r.balanceTransaction[index], ObjectRef.balanceTransaction))
            reference("charge", writer, expand, "charge", .charge(charge))
            writer.field("created", r.created[index])
            writer.field("currency", storage.charges.currency[charge].code)
            writer.field("destination_details") {
                if bankDebit {
                    writer.field("type", "us_bank_account")
                    writer.emptyObject("us_bank_account")
                } else {
                    writer.field("card") {
                        writer.field("reference", String(7_000_000_000 + index))
                        writer.field("reference_status", "available")
                        writer.field("reference_type", "acquirer_reference_number")
                        writer.field("type", "refund")
                    }
                    writer.field("type", "card")
                }
            }
            if failed {
                reference(
                    "failure_balance_transaction", writer, expand, "failure_balance_transaction",
                    .balanceTransaction(Int(r.failureBalanceTransaction[index])))
                writer.field("failure_reason", RefundTable.failureReasons[Int(r.failureReason[index])])
            }
            writer.field("id", id: .refund, index)
            writer.emptyObject("metadata")
            writer.field("object", "refund")
            reference("payment_intent", writer, expand, "payment_intent", .paymentIntent(charge))
            writer.field("reason", r.reason[index].name)
            writer.nullField("receipt_number")
            writer.nullField("source_transfer_reversal")
            writer.field("status", r.statusName(index))
            reference(
                "transfer_reversal", writer, expand, "transfer_reversal",
                optional(r.transferReversal[index], ObjectRef.transferReversal))
            writer.nullField("customer")
            writer.nullField("customer_account")
            writer.field("payment_method", id: .paymentMethod, charge)
        }
    }
}
