extension Renderer {
    // MARK: Charge

    func charge(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let c = storage.charges
        let amount = c.amount[i]
        let status = c.status[i]
        let currency = c.currency[i].code
        let idString = storage.ids.id(.charge, i)
        w.object {
            w.field("amount", amount)
            w.field("amount_captured", status == .failed ? 0 : amount)
            w.field("amount_refunded", c.amountRefunded[i])
            w.nullField("application")
            reference("application_fee", w, expand, "application_fee", optional(c.fee[i], ObjectRef.applicationFee))
            w.field("application_fee_amount", c.has(ChargeTable.showsFeeAmount, i) ? c.intentFeeAmount[i] : nil)
            reference(
                "balance_transaction", w, expand, "balance_transaction",
                optional(c.balanceTransaction[i], ObjectRef.balanceTransaction))
            w.field("billing_details") {
                w.field("address") {
                    w.nullField("city")
                    w.field("country", c.currency[i] == .usd ? "US" : nil)
                    w.nullField("line1")
                    w.nullField("line2")
                    w.field("postal_code", c.currency[i] == .usd ? "94103" : nil)
                    w.nullField("state")
                }
                w.nullField("email")
                w.field("name", Renderer.names[i % Renderer.names.count])
                w.nullField("phone")
                w.nullField("tax_id")
            }
            w.field("calculated_statement_descriptor", "CONNECT RECON")
            w.field("captured", status != .failed)
            w.field("created", c.created[i])
            w.field("currency", currency)
            w.nullField("customer")
            w.nullField("description")
            w.field("disputed", c.has(ChargeTable.disputed, i))
            reference(
                "failure_balance_transaction", w, expand, "failure_balance_transaction",
                optional(c.failureBalanceTransaction[i], ObjectRef.balanceTransaction))
            w.field("failure_code", status == .failed ? "insufficient_funds" : nil)
            w.field(
                "failure_message",
                status == .failed ? "The customer's account has insufficient funds to cover this payment." : nil)
            w.emptyObject("fraud_details")
            w.field("id", idString)
            w.field("livemode", false)
            w.emptyObject("metadata")
            w.field("object", "charge")
            if c.has(ChargeTable.onBehalfOf, i) {
                w.field("on_behalf_of", id: .account, Int(c.intentDestination[i]))
            } else {
                w.nullField("on_behalf_of")
            }
            w.field("outcome") {
                w.nullField("advice_code")
                w.nullField("network_advice_code")
                w.nullField("network_decline_code")
                w.field("network_status", "approved_by_network")
                w.nullField("reason")
                w.field("risk_level", "normal")
                w.field("risk_score", Int64(i % 60 + 5))
                w.field("seller_message", "Payment complete.")
                w.field("type", "authorized")
            }
            w.field("paid", status != .failed && status != .pending)
            reference("payment_intent", w, expand, "payment_intent", .paymentIntent(i))
            w.field("payment_method", id: .paymentMethod, i)
            w.key("payment_method_details")
            paymentMethodDetails(i, w)
            w.nullField("receipt_email")
            w.nullField("receipt_number")
            w.field("receipt_url", "https://pay.stripe.com/receipts/payment/" + idString)
            w.field("refunded", c.amountRefunded[i] == amount)
            if expand["refunds"] != nil {
                w.key("refunds")
                let items = expand.items(of: "refunds")
                nestedList(w, items: c.refunds.items(of: i), url: "/v1/charges/\(idString)/refunds") {
                    w.expandedObjects += 1
                    refund($0, w, items)
                }
            }
            w.nullField("review")
            w.nullField("shipping")
            w.nullField("source_transfer")
            w.nullField("statement_descriptor")
            w.nullField("statement_descriptor_suffix")
            w.field("status", status.name)
            // Absent without a transfer, except while Stripe has yet to create the transfer of a succeeded charge
            // (asynchronous capture): then null.
            if c.transfer[i] >= 0 {
                reference("transfer", w, expand, "transfer", .transfer(Int(c.transfer[i])))
            } else if status == .succeeded && c.has(ChargeTable.hasTransferData, i) {
                w.nullField("transfer")
            }
            w.key("transfer_data")
            if c.has(ChargeTable.hasTransferData, i) {
                w.object {
                    w.field("amount", c.intentTransferAmount[i] >= 0 ? c.intentTransferAmount[i] : nil)
                    w.field("destination", id: .account, Int(c.intentDestination[i]))
                }
            } else {
                w.null()
            }
            w.field("transfer_group", c.intentDestination[i] >= 0 ? "group_" + storage.ids.id(.paymentIntent, i) : nil)
            w.nullField("source")
        }
    }

    private func paymentMethodDetails(_ i: Int, _ w: JSONWriter) {
        let c = storage.charges
        let fingerprint = String(storage.ids.id(.paymentMethod, i).suffix(16))
        if c.method[i] == .bankDebit {
            if c.currency[i] == .eur {
                w.object {
                    w.field("sepa_debit") {
                        w.field("bank_code", "37040044")
                        w.nullField("branch_code")
                        w.field("country", "DE")
                        w.field("fingerprint", fingerprint)
                        w.field("last4", "3000")
                        w.nullField("mandate")
                    }
                    w.field("type", "sepa_debit")
                }
            } else {
                w.object {
                    w.field("type", "us_bank_account")
                    w.field("us_bank_account") {
                        w.field("account_holder_type", "individual")
                        w.field("account_type", "checking")
                        w.field("bank_name", "STRIPE TEST BANK")
                        w.field("fingerprint", fingerprint)
                        w.field("last4", "6789")
                        w.nullField("mandate")
                        w.nullField("payment_reference")
                        w.field("routing_number", "110000000")
                    }
                }
            }
            return
        }
        let brands = ["visa", "mastercard", "amex", "visa"]
        let brand = brands[i % brands.count]
        let last4s = ["4242", "4444", "8431", "1881"]
        w.object {
            w.field("card") {
                w.field("amount_authorized", c.amount[i])
                w.field("authorization_code", String(100_000 + (i * 7919) % 900_000))
                w.field("brand", brand)
                w.field("checks") {
                    w.nullField("address_line1_check")
                    w.nullField("address_postal_code_check")
                    w.field("cvc_check", "pass")
                }
                w.field("country", "US")
                w.field("exp_month", Int64(i % 12 + 1))
                w.field("exp_year", Int64(2028 + i % 5))
                w.field("extended_authorization") { w.field("status", "disabled") }
                w.field("fingerprint", fingerprint)
                w.field("funding", "credit")
                w.field("incremental_authorization") { w.field("status", "unavailable") }
                w.nullField("installments")
                w.field("last4", last4s[i % last4s.count])
                w.nullField("mandate")
                w.field("multicapture") { w.field("status", "unavailable") }
                w.field("network", brand)
                w.field("network_token") { w.field("used", false) }
                w.nullField("network_transaction_id")
                w.field("overcapture") {
                    w.field("maximum_amount_capturable", c.amount[i])
                    w.field("status", "unavailable")
                }
                w.nullField("regulated_status")
                w.nullField("three_d_secure")
                w.nullField("transaction_link_id")
                w.nullField("wallet")
            }
            w.field("type", "card")
        }
    }
}
