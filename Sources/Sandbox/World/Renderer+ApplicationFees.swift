extension Renderer {
    // MARK: Application fees

    func applicationFee(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let f = storage.fees
        let charge = Int(f.charge[i])
        let idString = storage.ids.id(.applicationFee, i)
        w.object {
            w.field("account", id: .account, Int(storage.charges.intentDestination[charge]))
            w.field("amount", f.amount[i])
            w.field("amount_refunded", f.amountRefunded[i])
            w.field("application", applicationID)
            reference(
                "balance_transaction", w, expand, "balance_transaction",
                optional(f.balanceTransaction[i], ObjectRef.balanceTransaction))
            w.field("charge", id: .connectedPayment, charge)
            w.field("created", f.created[i])
            w.field("currency", f.currency[i].code)
            w.field("fee_source") {
                w.field("charge", id: .connectedPayment, charge)
                w.field("type", "charge")
            }
            w.field("id", idString)
            w.field("livemode", false)
            w.field("object", "application_fee")
            reference("originating_transaction", w, expand, "originating_transaction", .charge(charge))
            w.field("refunded", f.amountRefunded[i] == f.amount[i])
            w.key("refunds")
            let refundExpansions = expand.items(of: "refunds")
            nestedList(w, items: f.refunds.items(of: i), url: "/v1/application_fees/\(idString)/refunds") {
                feeRefund($0, w, refundExpansions)
            }
        }
    }

    func feeRefund(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let fr = storage.feeRefunds
        let fee = Int(fr.fee[i])
        w.object {
            w.field("amount", fr.amount[i])
            reference(
                "balance_transaction", w, expand, "balance_transaction",
                optional(fr.balanceTransaction[i], ObjectRef.balanceTransaction))
            w.field("created", fr.created[i])
            w.field("currency", storage.fees.currency[fee].code)
            reference("fee", w, expand, "fee", .applicationFee(fee))
            w.field("id", id: .feeRefund, i)
            w.emptyObject("metadata")
            w.field("object", "fee_refund")
        }
    }
}
