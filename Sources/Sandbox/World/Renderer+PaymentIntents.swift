extension Renderer {
    // MARK: PaymentIntent

    func paymentIntent(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let c = storage.charges
        let status = c.status[i]
        let piID = storage.ids.id(.paymentIntent, i)
        let methodType =
            c.method[i] == .bankDebit ? (c.currency[i] == .eur ? "sepa_debit" : "us_bank_account") : "card"
        w.object {
            w.field("amount", c.amount[i])
            w.field("amount_capturable", 0)
            w.field("amount_details") { w.emptyObject("tip") }
            w.field("amount_received", status == .succeeded ? c.amount[i] : 0)
            w.nullField("application")
            w.field("application_fee_amount", c.intentFeeAmount[i] >= 0 ? c.intentFeeAmount[i] : nil)
            w.nullField("automatic_payment_methods")
            w.nullField("canceled_at")
            w.nullField("cancellation_reason")
            w.field("capture_method", c.method[i] == .cardAsyncCapture ? "automatic_async" : "automatic")
            w.field("client_secret", piID + "_secret_" + String(storage.ids.id(.paymentMethod, i).suffix(25)))
            w.field("confirmation_method", "automatic")
            w.field("created", c.created[i])
            w.field("currency", c.currency[i].code)
            w.nullField("customer")
            w.nullField("description")
            w.field("id", piID)
            w.key("last_payment_error")
            if status == .failed {
                w.object {
                    w.field("code", "payment_intent_payment_attempt_failed")
                    w.field("message", "The customer's account has insufficient funds to cover this payment.")
                    w.field("type", "invalid_request_error")
                }
            } else {
                w.null()
            }
            reference("latest_charge", w, expand, "latest_charge", .charge(i))
            w.field("livemode", false)
            w.emptyObject("metadata")
            w.nullField("next_action")
            w.field("object", "payment_intent")
            if c.has(ChargeTable.onBehalfOf, i) {
                w.field("on_behalf_of", id: .account, Int(c.intentDestination[i]))
            } else {
                w.nullField("on_behalf_of")
            }
            w.field("payment_method", id: .paymentMethod, i)
            w.nullField("payment_method_configuration_details")
            w.emptyObject("payment_method_options")
            w.arrayField("payment_method_types") { w.string(methodType) }
            w.nullField("processing")
            w.nullField("receipt_email")
            w.nullField("review")
            w.nullField("setup_future_usage")
            w.nullField("shipping")
            w.nullField("source")
            w.nullField("statement_descriptor")
            w.nullField("statement_descriptor_suffix")
            w.field(
                "status",
                status == .succeeded ? "succeeded" : status == .pending ? "processing" : "requires_payment_method")
            w.key("transfer_data")
            if c.intentDestination[i] >= 0 {
                w.object {
                    if c.intentTransferAmount[i] >= 0 { w.field("amount", c.intentTransferAmount[i]) }
                    w.field("destination", id: .account, Int(c.intentDestination[i]))
                }
            } else {
                w.null()
            }
            w.field("transfer_group", c.intentDestination[i] >= 0 ? "group_" + piID : nil)
            w.nullField("excluded_payment_method_types")
            w.nullField("customer_account")
            w.field("managed_payments") { w.field("enabled", false) }
        }
    }
}
