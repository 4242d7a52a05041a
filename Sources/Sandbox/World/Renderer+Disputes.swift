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

    func dispute(_ index: Int, _ writer: JSONWriter, _ expand: ExpandTree) {
        let d = storage.disputes
        let charge = Int(d.charge[index])
        let status = d.status[index]
        let created = d.created[index]
        let dueBy = created - created % 86_400 + 8 * 86_400 - 1
        writer.object {
            writer.field("amount", d.amount[index])
            writer.arrayField("balance_transactions") {
                if d.withdrawal[index] >= 0 { balanceTransaction(Int(d.withdrawal[index]), writer, ExpandTree()) }
                if d.reinstatement[index] >= 0 { balanceTransaction(Int(d.reinstatement[index]), writer, ExpandTree()) }
            }
            reference("charge", writer, expand, "charge", .charge(charge))
            writer.field("created", created)
            writer.field("currency", storage.charges.currency[charge].code)
            writer.field("evidence") {
                for field in Renderer.evidenceFields { writer.nullField(field) }
                writer.emptyObject("enhanced_evidence")
            }
            writer.field("evidence_details") {
                writer.field("due_by", status == .needsResponse || status == .warningNeedsResponse ? dueBy : nil)
                writer.field("has_evidence", status == .underReview || status == .won || status == .lost)
                writer.field("past_due", false)
                writer.field("submission_count", status == .underReview || status == .won || status == .lost ? 1 : 0)
                writer.emptyObject("enhanced_eligibility")
            }
            writer.field("id", id: .dispute, index)
            writer.field("is_charge_refundable", status.isInquiry)
            writer.field("livemode", false)
            writer.emptyObject("metadata")
            writer.field("object", "dispute")
            reference("payment_intent", writer, expand, "payment_intent", .paymentIntent(charge))
            writer.field("payment_method_details") {
                if storage.charges.method[charge] == .bankDebit {
                    writer.field("type", "us_bank_account")
                    writer.emptyObject("us_bank_account")
                } else {
                    writer.field("card") {
                        writer.field("brand", "visa")
                        writer.field("case_type", status.isInquiry ? "inquiry" : "chargeback")
                        writer.field("network", "visa")
                        writer.field("network_reason_code", "10.4")
                    }
                    writer.field("type", "card")
                }
            }
            writer.field("reason", DisputeTable.reasons[Int(d.reason[index])])
            writer.field("status", status.name)
            writer.arrayField("enhanced_eligibility_types") {}
        }
    }
}
