extension Renderer {
    // MARK: Disputes

    private static let evidenceFields: [StaticString] = [
        "access_activity_log", "billing_address", "cancellation_policy", "cancellation_policy_disclosure",
        "cancellation_rebuttal", "customer_communication", "customer_email_address", "customer_name",
        "customer_purchase_ip", "customer_signature", "duplicate_charge_documentation",
        "duplicate_charge_explanation", "duplicate_charge_id", "product_description", "receipt", "refund_policy",
        "refund_policy_disclosure", "refund_refusal_explanation", "service_date", "service_documentation",
        "shipping_address", "shipping_carrier", "shipping_date", "shipping_documentation",
        "shipping_tracking_number", "uncategorized_file", "uncategorized_text",
    ]

    func dispute(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let d = storage.disputes
        let charge = Int(d.charge[i])
        let status = d.status[i]
        let created = d.created[i]
        let dueBy = created - created % 86_400 + 8 * 86_400 - 1
        w.object {
            w.field("amount", d.amount[i])
            w.arrayField("balance_transactions") {
                if d.withdrawal[i] >= 0 { balanceTransaction(Int(d.withdrawal[i]), w, ExpandTree()) }
                if d.reinstatement[i] >= 0 { balanceTransaction(Int(d.reinstatement[i]), w, ExpandTree()) }
            }
            reference("charge", w, expand, "charge", .charge(charge))
            w.field("created", created)
            w.field("currency", storage.charges.currency[charge].code)
            w.field("evidence") {
                for field in Renderer.evidenceFields { w.nullField(field) }
                w.emptyObject("enhanced_evidence")
            }
            w.field("evidence_details") {
                w.field("due_by", status == .needsResponse || status == .warningNeedsResponse ? dueBy : nil)
                w.field("has_evidence", status == .underReview || status == .won || status == .lost)
                w.field("past_due", false)
                w.field("submission_count", status == .underReview || status == .won || status == .lost ? 1 : 0)
                w.emptyObject("enhanced_eligibility")
            }
            w.field("id", id: .dispute, i)
            w.field("is_charge_refundable", status.isInquiry)
            w.field("livemode", false)
            w.emptyObject("metadata")
            w.field("object", "dispute")
            reference("payment_intent", w, expand, "payment_intent", .paymentIntent(charge))
            w.field("payment_method_details") {
                if storage.charges.method[charge] == .bankDebit {
                    w.field("type", "us_bank_account")
                    w.emptyObject("us_bank_account")
                } else {
                    w.field("card") {
                        w.field("brand", "visa")
                        w.field("case_type", status.isInquiry ? "inquiry" : "chargeback")
                        w.field("network", "visa")
                        w.field("network_reason_code", "10.4")
                    }
                    w.field("type", "card")
                }
            }
            w.field("reason", DisputeTable.reasons[Int(d.reason[i])])
            w.field("status", status.name)
            w.arrayField("enhanced_eligibility_types") {}
        }
    }
}
