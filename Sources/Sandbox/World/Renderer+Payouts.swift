extension Renderer {
    // MARK: Payouts

    /// An automatic payout, field for field as Stripe's payout object
    /// (https://docs.stripe.com/api/payouts/object): to the platform's bank account of its currency, with its own
    /// balance transaction and, once it failed, the one that returned its funds.
    func payout(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let p = storage.payouts
        let status = p.status[i]
        let failed = status == .failed
        w.object {
            w.field("amount", p.amount[i])
            w.nullField("application_fee")
            w.nullField("application_fee_amount")
            w.field("arrival_date", p.arrivalDate[i])
            w.field("automatic", true)
            let own = ObjectRef.balanceTransaction(Int(p.balanceTransaction[i]))
            reference("balance_transaction", w, expand, "balance_transaction", own)
            w.field("created", p.created[i])
            w.field("currency", p.currency[i].code)
            w.field("description", "STRIPE PAYOUT")
            // One bank account per settlement currency.
            w.field("destination", id: .bankAccount, Int(p.currency[i].rawValue))
            reference(
                "failure_balance_transaction", w, expand, "failure_balance_transaction",
                p.failureBalanceTransaction[i] >= 0 ? .balanceTransaction(Int(p.failureBalanceTransaction[i])) : nil)
            w.field("failure_code", failed ? PayoutTable.failureCode : nil)
            w.field("failure_message", failed ? PayoutTable.failureMessage : nil)
            w.field("id", id: .payout, i)
            w.field("livemode", false)
            w.emptyObject("metadata")
            w.field("method", "standard")
            w.field("object", "payout")
            w.nullField("original_payout")
            w.nullField("payout_method")
            w.field("reconciliation_status", p.reconciliation[i].name)
            w.nullField("reversed_by")
            w.field("source_type", "card")
            w.nullField("statement_descriptor")
            w.field("status", status.name)
            w.field("trace_id") {
                // Pending while the payout travels; the test banks of the world support no trace ids.
                w.field("status", status == .inTransit ? "pending" : "unsupported")
                w.nullField("value")
            }
            w.field("type", "bank_account")
        }
    }
}
