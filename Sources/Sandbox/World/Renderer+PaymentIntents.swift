extension Renderer {
    // MARK: PaymentIntent

    /// A PaymentIntent. One captured for less than its amount (or not at all) was confirmed with
    /// `capture_method: manual`; a multicapture in progress is `requires_capture` with the rest capturable; an
    /// authorisation that expired is `canceled` (`cancellation_reason: automatic`) once Stripe refunded it.
    func paymentIntent(_ index: Int, _ writer: JSONWriter, _ expand: ExpandTree) {
        let c = storage.charges
        let status = c.status[index]
        let captured = c.amountCaptured[index]
        let manual = status == .succeeded && captured < c.amount[index]
        let inProgress = status == .succeeded && c.has(ChargeTable.uncaptured, index) && captured > 0
        let expiredAt: Int64? =
            status == .succeeded && captured == 0
            ? c.refunds.items(of: index).map { storage.refunds.created[Int($0)] }.first : nil
        let piID = storage.ids.id(.paymentIntent, index)
        let methodType =
            c.method[index] == .bankDebit ? (c.currency[index] == .eur ? "sepa_debit" : "us_bank_account") : "card"
        writer.object {
            writer.field("amount", c.amount[index])
            writer.field(
                "amount_capturable",
                c.has(ChargeTable.uncaptured, index) && status == .succeeded && expiredAt == nil
                    ? c.amount[index] - captured : 0)
            writer.field("amount_details") { writer.emptyObject("tip") }
            writer.field("amount_received", status == .succeeded ? captured : 0)
            writer.nullField("application")
            writer.field("application_fee_amount", c.intentFeeAmount[index] >= 0 ? c.intentFeeAmount[index] : nil)
            writer.nullField("automatic_payment_methods")
            writer.field("canceled_at", expiredAt)
            writer.field("cancellation_reason", expiredAt != nil ? "automatic" : nil)
            writer.field(
                "capture_method",
                manual ? "manual" : c.method[index] == .cardAsyncCapture ? "automatic_async" : "automatic")
            writer.field("client_secret", piID + "_secret_" + String(storage.ids.id(.paymentMethod, index).suffix(25)))
            writer.field("confirmation_method", "automatic")
            writer.field("created", c.created[index])
            writer.field("currency", c.currency[index].code)
            writer.nullField("customer")
            writer.nullField("description")
            writer.field("id", piID)
            writer.key("last_payment_error")
            if status == .failed {
                writer.object {
                    writer.field("code", "payment_intent_payment_attempt_failed")
                    writer.field("message", "The customer's account has insufficient funds to cover this payment.")
                    writer.field("type", "invalid_request_error")
                }
            } else {
                writer.null()
            }
            reference("latest_charge", writer, expand, "latest_charge", .charge(index))
            writer.field("livemode", false)
            writer.emptyObject("metadata")
            writer.nullField("next_action")
            writer.field("object", "payment_intent")
            if c.has(ChargeTable.onBehalfOf, index) {
                writer.field("on_behalf_of", id: .account, Int(c.intentDestination[index]))
            } else {
                writer.nullField("on_behalf_of")
            }
            writer.field("payment_method", id: .paymentMethod, index)
            writer.nullField("payment_method_configuration_details")
            writer.emptyObject("payment_method_options")
            writer.arrayField("payment_method_types") { writer.string(methodType) }
            writer.nullField("processing")
            writer.nullField("receipt_email")
            writer.nullField("review")
            writer.nullField("setup_future_usage")
            writer.nullField("shipping")
            writer.nullField("source")
            writer.nullField("statement_descriptor")
            writer.nullField("statement_descriptor_suffix")
            let intentStatus =
                expiredAt != nil
                ? "canceled"
                : inProgress || (manual && captured == 0)
                    ? "requires_capture"
                    : status == .succeeded ? "succeeded" : status == .pending ? "processing" : "requires_payment_method"
            writer.field("status", intentStatus)
            writer.key("transfer_data")
            if c.intentDestination[index] >= 0 {
                writer.object {
                    if c.intentTransferAmount[index] >= 0 { writer.field("amount", c.intentTransferAmount[index]) }
                    writer.field("destination", id: .account, Int(c.intentDestination[index]))
                }
            } else {
                writer.null()
            }
            writer.field("transfer_group", transferGroup(ofCharge: index))
            writer.nullField("excluded_payment_method_types")
            writer.nullField("customer_account")
            writer.field("managed_payments") { writer.field("enabled", false) }
        }
    }
}
