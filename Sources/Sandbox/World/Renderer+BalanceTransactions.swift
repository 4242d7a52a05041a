extension Renderer {
    // MARK: Balance transactions

    func balanceTransaction(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let b = storage.balanceTransactions
        let type = b.type[i]
        let currency = b.currency[i].code
        let source = Int(b.source[i])
        let sourceRef: ObjectRef? =
            if source < 0 {
                nil
            } else {
                switch b.sourceKind[i] {
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
        let pending = b.pending[i] || b.availableOn[i] > storage.end
        w.object {
            w.field("amount", b.amount[i])
            w.field("available_on", b.availableOn[i])
            w.field("created", b.created[i])
            w.field("currency", currency)
            switch type {
            case .disputeWithdrawal, .disputeReinstatement:
                let charge = storage.ids.id(.charge, Int(storage.disputes.charge[source]))
                w.field(
                    "description",
                    (type == .disputeWithdrawal ? "Chargeback withdrawal for " : "Chargeback reversal for ") + charge)
            case .transferRefund: w.field("description", "Transfer reversal")
            case .payout: w.field("description", "STRIPE PAYOUT")
            default: w.nullField("description")
            }
            w.key("exchange_rate")
            if b.rate[i] != 0, let presentment = presentmentCurrency(sourceRef) {
                w.rawNumber(Renderer.exchangeRate(b.rate[i], from: presentment, to: b.currency[i]))
            } else {
                w.null()
            }
            w.field("fee", b.fee[i])
            w.arrayField("fee_details") {
                if b.fee[i] != 0 {
                    w.object {
                        w.field("amount", b.fee[i])
                        w.nullField("application")
                        w.field("currency", currency)
                        w.field("description", type == .disputeWithdrawal ? "Dispute fee" : "Stripe processing fees")
                        w.field("type", "stripe_fee")
                    }
                }
            }
            w.field("id", id: .balanceTransaction, i)
            w.field("net", b.amount[i] - b.fee[i])
            w.field("object", "balance_transaction")
            w.field("reporting_category", type.reportingCategory)
            reference("source", w, expand, "source", sourceRef)
            w.field("status", pending ? "pending" : "available")
            w.field("type", type.type)
            w.field("balance_type", b.balanceType[i].name)
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
}
