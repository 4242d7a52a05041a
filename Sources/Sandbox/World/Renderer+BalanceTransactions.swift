extension Renderer {
    // MARK: Balance transactions

    func balanceTransaction(_ index: Int, _ writer: JSONWriter, _ expand: ExpandTree) {
        let b = storage.balanceTransactions
        let type = b.type[index]
        let currency = b.currency[index].code
        let source = Int(b.source[index])
        let sourceRef: ObjectRef? =
            if source < 0 {
                nil
            } else {
                switch b.sourceKind[index] {
                case .transfer: .transfer(source)
                case .transferReversal: .transferReversal(source)
                case .applicationFee: .applicationFee(source)
                case .feeRefund: .feeRefund(source)
                case .refund: .refund(source)
                case .dispute: .dispute(source)
                case .payout: .payout(source)
                default: .charge(source)
                }
            }
        let pending = b.pending[index] || b.availableOn[index] > storage.end
        writer.object {
            writer.field("amount", b.amount[index])
            writer.field("available_on", b.availableOn[index])
            writer.field("created", b.created[index])
            writer.field("currency", currency)
            switch type {
            case .disputeWithdrawal, .disputeReinstatement:
                let charge = storage.ids.id(.charge, Int(storage.disputes.charge[source]))
                writer.field(
                    "description",
                    (type == .disputeWithdrawal ? "Chargeback withdrawal for " : "Chargeback reversal for ") + charge)
            case .transferRefund: writer.field("description", "Transfer reversal")
            case .payout: writer.field("description", "STRIPE PAYOUT")
            case .stripeFee, .networkCost:
                if let cost = b.stripeCosts[Int32(index)] {
                    writer.field("description", cost.description)
                } else {
                    writer.nullField("description")
                }
            default: writer.nullField("description")
            }
            writer.key("exchange_rate")
            if b.rate[index] != 0, let presentment = presentmentCurrency(sourceRef) {
                writer.rawNumber(Renderer.exchangeRate(b.rate[index], from: presentment, to: b.currency[index]))
            } else {
                writer.null()
            }
            writer.field("fee", b.fee[index])
            writer.arrayField("fee_details") {
                if b.fee[index] != 0 {
                    writer.object {
                        writer.field("amount", b.fee[index])
                        writer.nullField("application")
                        writer.field("currency", currency)
                        writer.field(
                            "description", type == .disputeWithdrawal ? "Dispute fee" : "Stripe processing fees")
                        writer.field("type", "stripe_fee")
                    }
                }
            }
            writer.field("id", id: .balanceTransaction, index)
            writer.field("net", b.amount[index] - b.fee[index])
            writer.field("object", "balance_transaction")
            writer.field("reporting_category", type.reportingCategory)
            if let collection = b.collections[Int32(index)] {
                collectionSource(collection, currency: currency, amount: -b.amount[index], writer, expand)
            } else {
                reference("source", writer, expand, "source", sourceRef)
            }
            writer.field("status", pending ? "pending" : "available")
            writer.field("type", type.type)
            writer.field("balance_type", b.balanceType[index].name)
        }
    }

    /// The currency the source of a converted balance transaction was in (the charge's for its refunds and
    /// disputes, the transfer's for its reversals, the fee's for its refunds).
    private func presentmentCurrency(_ source: ObjectRef?) -> WorldCurrency? {
        let s = storage
        switch source {
        case .charge(let c): return s.charges.currency[c]
        case .refund(let r): return s.charges.currency[Int(s.refunds.charge[r])]
        case .dispute(let d): return s.charges.currency[Int(s.disputes.charge[d])]
        case .transfer(let t): return s.transfers.currency[t]
        case .transferReversal(let v): return s.transfers.currency[Int(s.reversals.transfer[v])]
        case .applicationFee(let f): return s.fees.currency[f]
        case .feeRefund(let f): return s.fees.currency[Int(s.feeRefunds.fee[f])]
        case .payout, .paymentIntent, .balanceTransaction, nil: return nil
        }
    }

    /// A collection transfer's `source`: its id, or (with `expand[]=source`) the collection transfer itself, naming the
    /// account collected for; the one collection that names none stays an id.
    private func collectionSource(
        _ collection: WorldCollection, currency: String, amount: Int64, _ writer: JSONWriter, _ expand: ExpandTree
    ) {
        writer.key("source")
        guard expand["source"] != nil, collection.account >= 0 else {
            return writer.id(.collectionTransfer, collection.index)
        }
        writer.expandedObjects += 1
        writer.object {
            writer.field("amount", amount)
            writer.field("currency", currency)
            writer.field("destination", id: .account, Int(collection.account))
            writer.field("id", id: .collectionTransfer, collection.index)
            writer.field("livemode", false)
            writer.field("object", "connect_collection_transfer")
        }
    }
}
