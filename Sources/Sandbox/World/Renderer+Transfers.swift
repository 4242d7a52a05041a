extension Renderer {
    // MARK: Transfers and reversals

    func transfer(_ index: Int, _ writer: JSONWriter, _ expand: ExpandTree) {
        let t = storage.transfers
        let idString = storage.ids.id(.transfer, index)
        let source = Int(t.sourceCharge[index])
        writer.object {
            writer.field("amount", t.amount[index])
            writer.field("amount_reversed", t.amountReversed[index])
            reference(
                "balance_transaction", writer, expand, "balance_transaction",
                optional(t.balanceTransaction[index], ObjectRef.balanceTransaction))
            writer.field("created", t.created[index])
            writer.field("currency", t.currency[index].code)
            writer.nullField("description")
            writer.field("destination", id: .account, Int(t.destination[index]))
            writer.field(
                "destination_payment", id: .connectedPayment,
                t.role[index] == .destination ? source : storage.plannedChargeCount + index)
            writer.field("id", idString)
            writer.field("livemode", false)
            writer.field("metadata") {
                if t.dispute[index] >= 0 {
                    writer.field("dispute_id", id: .dispute, Int(t.dispute[index]))
                    writer.field("kind", "dispute_repayment")
                }
            }
            writer.field("object", "transfer")
            writer.key("reversals")
            let reversalExpansions = expand.items(of: "reversals")
            nestedList(writer, items: t.reversals.items(of: index), url: "/v1/transfers/\(idString)/reversals") {
                transferReversal($0, writer, reversalExpansions)
            }
            writer.field("reversed", t.amountReversed[index] == t.amount[index])
            reference("source_transaction", writer, expand, "source_transaction", source >= 0 ? .charge(source) : nil)
            writer.field("source_type", "card")
            writer.field("transfer_group", transferGroup(ofTransfer: index))
        }
    }

    /// A transfer's `transfer_group`: its destination charge's (Stripe's `group_pi_…`), or the platform's group of a
    /// separately transferred charge's transfer, else none (a transfer naming its charge as `source_transaction` only,
    /// a bonus, a dispute repayment).
    func transferGroup(ofTransfer index: Int) -> String? {
        let t = storage.transfers
        let source = Int(t.sourceCharge[index])
        if t.role[index] == .destination, source >= 0, storage.charges.intentDestination[source] >= 0 {
            return "group_" + storage.ids.id(.paymentIntent, source)
        }
        return t.group[index] >= 0 ? WorldStorage.groupName(Int(t.group[index])) : nil
    }

    func transferReversal(_ index: Int, _ writer: JSONWriter, _ expand: ExpandTree) {
        let v = storage.reversals
        let transfer = Int(v.transfer[index])
        writer.object {
            writer.field("amount", v.amount[index])
            reference(
                "balance_transaction", writer, expand, "balance_transaction",
                optional(v.balanceTransaction[index], ObjectRef.balanceTransaction))
            writer.field("created", v.created[index])
            writer.field("currency", storage.transfers.currency[transfer].code)
            writer.field("destination_payment_refund", id: .connectedPaymentRefund, index)
            writer.field("id", id: .transferReversal, index)
            writer.field("metadata") {
                if v.dispute[index] >= 0 { writer.field("dispute_id", id: .dispute, Int(v.dispute[index])) }
            }
            writer.field("object", "transfer_reversal")
            reference(
                "source_refund", writer, expand, "source_refund", optional(v.sourceRefund[index], ObjectRef.refund))
            reference("transfer", writer, expand, "transfer", .transfer(transfer))
        }
    }
}
