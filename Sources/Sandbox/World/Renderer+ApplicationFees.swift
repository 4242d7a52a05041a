extension Renderer {
    // MARK: Application fees

    func applicationFee(_ index: Int, _ writer: JSONWriter, _ expand: ExpandTree) {
        let f = storage.fees
        let charge = Int(f.charge[index])
        let idString = storage.ids.id(.applicationFee, index)
        writer.object {
            writer.field("account", id: .account, Int(storage.charges.intentDestination[charge]))
            writer.field("amount", f.amount[index])
            writer.field("amount_refunded", f.amountRefunded[index])
            writer.field("application", applicationID)
            reference(
                "balance_transaction", writer, expand, "balance_transaction",
                optional(f.balanceTransaction[index], ObjectRef.balanceTransaction))
            writer.field("charge", id: .connectedPayment, charge)
            writer.field("created", f.created[index])
            writer.field("currency", f.currency[index].code)
            writer.field("fee_source") {
                writer.field("charge", id: .connectedPayment, charge)
                writer.field("type", "charge")
            }
            writer.field("id", idString)
            writer.field("livemode", false)
            writer.field("object", "application_fee")
            reference("originating_transaction", writer, expand, "originating_transaction", .charge(charge))
            writer.field("refunded", f.amountRefunded[index] == f.amount[index])
            writer.key("refunds")
            let refundExpansions = expand.items(of: "refunds")
            nestedList(writer, items: f.refunds.items(of: index), url: "/v1/application_fees/\(idString)/refunds") {
                feeRefund($0, writer, refundExpansions)
            }
        }
    }

    func feeRefund(_ index: Int, _ writer: JSONWriter, _ expand: ExpandTree) {
        let fr = storage.feeRefunds
        let fee = Int(fr.fee[index])
        writer.object {
            writer.field("amount", fr.amount[index])
            reference(
                "balance_transaction", writer, expand, "balance_transaction",
                optional(fr.balanceTransaction[index], ObjectRef.balanceTransaction))
            writer.field("created", fr.created[index])
            writer.field("currency", storage.fees.currency[fee].code)
            reference("fee", writer, expand, "fee", .applicationFee(fee))
            writer.field("id", id: .feeRefund, index)
            writer.emptyObject("metadata")
            writer.field("object", "fee_refund")
        }
    }
}
