extension Renderer {
    // MARK: Transfers and reversals

    func transfer(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let t = storage.transfers
        let idString = storage.ids.id(.transfer, i)
        let source = Int(t.sourceCharge[i])
        w.object {
            w.field("amount", t.amount[i])
            w.field("amount_reversed", t.amountReversed[i])
            reference(
                "balance_transaction", w, expand, "balance_transaction",
                optional(t.balanceTransaction[i], ObjectRef.balanceTransaction))
            w.field("created", t.created[i])
            w.field("currency", t.currency[i].code)
            w.nullField("description")
            w.field("destination", id: .account, Int(t.destination[i]))
            w.field(
                "destination_payment", id: .connectedPayment,
                t.role[i] == .destination ? source : storage.charges.count + i)
            w.field("id", idString)
            w.field("livemode", false)
            w.field("metadata") {
                if t.dispute[i] >= 0 {
                    w.field("dispute_id", id: .dispute, Int(t.dispute[i]))
                    w.field("kind", "dispute_repayment")
                }
            }
            w.field("object", "transfer")
            w.key("reversals")
            let reversalExpansions = expand.items(of: "reversals")
            nestedList(w, items: t.reversals.items(of: i), url: "/v1/transfers/\(idString)/reversals") {
                transferReversal($0, w, reversalExpansions)
            }
            w.field("reversed", t.amountReversed[i] == t.amount[i])
            reference("source_transaction", w, expand, "source_transaction", source >= 0 ? .charge(source) : nil)
            w.field("source_type", "card")
            w.field(
                "transfer_group",
                t.role[i] == .destination && storage.charges.intentDestination[source] >= 0
                    ? "group_" + storage.ids.id(.paymentIntent, source) : nil)
        }
    }

    func transferReversal(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let v = storage.reversals
        let transfer = Int(v.transfer[i])
        w.object {
            w.field("amount", v.amount[i])
            reference(
                "balance_transaction", w, expand, "balance_transaction",
                optional(v.balanceTransaction[i], ObjectRef.balanceTransaction))
            w.field("created", v.created[i])
            w.field("currency", storage.transfers.currency[transfer].code)
            w.field("destination_payment_refund", id: .connectedPaymentRefund, i)
            w.field("id", id: .transferReversal, i)
            w.field("metadata") {
                if v.dispute[i] >= 0 { w.field("dispute_id", id: .dispute, Int(v.dispute[i])) }
            }
            w.field("object", "transfer_reversal")
            reference("source_refund", w, expand, "source_refund", optional(v.sourceRefund[i], ObjectRef.refund))
            reference("transfer", w, expand, "transfer", .transfer(transfer))
        }
    }
}
