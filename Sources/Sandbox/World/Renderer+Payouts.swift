extension Renderer {
    // MARK: Payouts

    /// A payout (automatic, or a manual Instant Payout), field for field as Stripe's payout object
    /// (https://docs.stripe.com/api/payouts/object): to the platform's bank account of its currency, with its own
    /// balance transaction and, once it failed, the one that returned its funds.
    func payout(_ index: Int, _ writer: JSONWriter, _ expand: ExpandTree) {
        let p = storage.payouts
        let status = p.status[index]
        let failed = status == .failed
        writer.object {
            writer.field("amount", p.amount[index])
            writer.nullField("application_fee")
            writer.nullField("application_fee_amount")
            writer.field("arrival_date", p.arrivalDate[index])
            writer.field("automatic", p.automatic[index])
            let own = ObjectRef.balanceTransaction(Int(p.balanceTransaction[index]))
            reference("balance_transaction", writer, expand, "balance_transaction", own)
            writer.field("created", p.created[index])
            writer.field("currency", p.currency[index].code)
            writer.field("description", "STRIPE PAYOUT")
            // One bank account per settlement currency.
            writer.field("destination", id: .bankAccount, Int(p.currency[index].rawValue))
            reference(
                "failure_balance_transaction", writer, expand, "failure_balance_transaction",
                p.failureBalanceTransaction[index] >= 0
                    ? .balanceTransaction(Int(p.failureBalanceTransaction[index])) : nil)
            writer.field("failure_code", failed ? PayoutTable.failureCode : nil)
            writer.field("failure_message", failed ? PayoutTable.failureMessage : nil)
            writer.field("id", id: .payout, index)
            writer.field("livemode", false)
            writer.emptyObject("metadata")
            writer.field("method", p.automatic[index] ? "standard" : "instant")
            writer.field("object", "payout")
            writer.nullField("original_payout")
            writer.nullField("payout_method")
            writer.field("reconciliation_status", p.reconciliation[index].name)
            writer.nullField("reversed_by")
            writer.field("source_type", "card")
            writer.nullField("statement_descriptor")
            writer.field("status", status.name)
            writer.field("trace_id") {
                // Pending while the payout travels; the test banks of the world support no trace ids.
                writer.field("status", status == .inTransit ? "pending" : "unsupported")
                writer.nullField("value")
            }
            writer.field("type", "bank_account")
        }
    }
}
