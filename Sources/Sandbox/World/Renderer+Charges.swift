extension Renderer {
    // MARK: Charge

    func charge(_ index: Int, _ writer: JSONWriter, _ expand: ExpandTree) {
        let charges = storage.charges
        let amount = charges.amount[index]
        let status = charges.status[index]
        let currency = charges.currency[index].code
        let idString = storage.ids.id(chargeIDKind(index), index)
        let account = charges.payingAccount[Int32(index)]
        writer.object {
            writer.field("amount", amount)
            writer.field("amount_captured", status == .failed ? 0 : charges.amountCaptured[index])
            writer.field("amount_refunded", charges.amountRefunded[index])
            writer.nullField("application")
            reference(
                "application_fee", writer, expand, "application_fee",
                optional(charges.fee[index], ObjectRef.applicationFee))
            writer.field(
                "application_fee_amount",
                charges.has(ChargeTable.showsFeeAmount, index) ? charges.intentFeeAmount[index] : nil)
            reference(
                "balance_transaction", writer, expand, "balance_transaction",
                optional(charges.balanceTransaction[index], ObjectRef.balanceTransaction))
            writer.field("billing_details") {
                writer.field("address") {
                    writer.nullField("city")
                    writer.field("country", charges.currency[index] == .usd ? "US" : nil)
                    writer.nullField("line1")
                    writer.nullField("line2")
                    writer.field("postal_code", charges.currency[index] == .usd ? "94103" : nil)
                    writer.nullField("state")
                }
                writer.nullField("email")
                writer.field("name", Renderer.names[index % Renderer.names.count])
                writer.nullField("phone")
                writer.nullField("tax_id")
            }
            writer.field("calculated_statement_descriptor", "CONNECT RECON")
            writer.field("captured", status != .failed && !charges.has(ChargeTable.uncaptured, index))
            writer.field("created", charges.created[index])
            writer.field("currency", currency)
            writer.nullField("customer")
            writer.nullField("description")
            writer.field("disputed", charges.has(ChargeTable.disputed, index))
            reference(
                "failure_balance_transaction", writer, expand, "failure_balance_transaction",
                optional(charges.failureBalanceTransaction[index], ObjectRef.balanceTransaction))
            writer.field("failure_code", status == .failed ? "insufficient_funds" : nil)
            writer.field(
                "failure_message",
                status == .failed ? "The customer's account has insufficient funds to cover this payment." : nil)
            writer.emptyObject("fraud_details")
            writer.field("id", idString)
            writer.field("livemode", false)
            debitMetadata(index, writer)
            writer.field("object", "charge")
            if charges.has(ChargeTable.onBehalfOf, index) {
                writer.field("on_behalf_of", id: .account, Int(charges.intentDestination[index]))
            } else {
                writer.nullField("on_behalf_of")
            }
            writer.field("outcome") {
                writer.nullField("advice_code")
                writer.nullField("network_advice_code")
                writer.nullField("network_decline_code")
                writer.field("network_status", "approved_by_network")
                writer.nullField("reason")
                writer.field("risk_level", "normal")
                writer.field("risk_score", Int64(index % 60 + 5))
                writer.field("seller_message", "Payment complete.")
                writer.field("type", "authorized")
            }
            writer.field("paid", status != .failed && status != .pending)
            reference(
                "payment_intent", writer, expand, "payment_intent", account == nil ? .paymentIntent(index) : nil)
            if account == nil {
                writer.field("payment_method", id: .paymentMethod, index)
            } else {
                writer.nullField("payment_method")
            }
            writer.key("payment_method_details")
            paymentMethodDetails(index, writer)
            writer.nullField("receipt_email")
            writer.nullField("receipt_number")
            writer.field("receipt_url", "https://pay.stripe.com/receipts/payment/" + idString)
            writer.field("refunded", charges.amountRefunded[index] == amount)
            if expand["refunds"] != nil {
                writer.key("refunds")
                let items = expand.items(of: "refunds")
                nestedList(writer, items: charges.refunds.items(of: index), url: "/v1/charges/\(idString)/refunds") {
                    writer.expandedObjects += 1
                    refund($0, writer, items)
                }
            }
            writer.nullField("review")
            writer.nullField("shipping")
            sourceTransfer(index, writer, expand)
            writer.nullField("statement_descriptor")
            writer.nullField("statement_descriptor_suffix")
            writer.field("status", status.name)
            // Absent without a transfer, except on a succeeded charge that asked for one: null while Stripe has yet to
            // create it (asynchronous capture), and when Stripe skipped it.
            if charges.transfer[index] >= 0 {
                reference("transfer", writer, expand, "transfer", .transfer(Int(charges.transfer[index])))
            } else if status == .succeeded
                && (charges.has(ChargeTable.hasTransferData, index) || charges.intentDestination[index] >= 0)
            {
                writer.nullField("transfer")
            }
            writer.key("transfer_data")
            if charges.has(ChargeTable.hasTransferData, index) {
                writer.object {
                    writer.field(
                        "amount", charges.intentTransferAmount[index] >= 0 ? charges.intentTransferAmount[index] : nil)
                    writer.field("destination", id: .account, Int(charges.intentDestination[index]))
                }
            } else {
                writer.null()
            }
            writer.field("transfer_group", transferGroup(ofCharge: index))
            if let account {
                writer.field("source") {
                    writer.field("id", id: .account, Int(account))
                    writer.field("object", "account")
                }
            } else {
                writer.nullField("source")
            }
        }
    }

    /// The `transfer_group` of a charge and its PaymentIntent: Stripe's own `group_pi_…` for a destination charge, the
    /// platform's group for a separately transferred charge that has one, else none.
    func transferGroup(ofCharge index: Int) -> String? {
        let charges = storage.charges
        if charges.intentDestination[index] >= 0 { return "group_" + storage.ids.id(.paymentIntent, index) }
        let group = charges.group[index]
        return group >= 0 ? WorldStorage.groupName(Int(group)) : nil
    }

    /// The card's or bank account's details: a card's from Stripe's example charge (``CardPaymentDetails``), with
    /// what differs per charge filled in.
    private func paymentMethodDetails(_ index: Int, _ writer: JSONWriter) {
        let charges = storage.charges
        let fingerprint = String(storage.ids.id(.paymentMethod, index).suffix(16))
        if charges.method[index].isFromAnAccount {
            let debit = charges.method[index] == .accountDebit
            return writer.object {
                if debit { writer.emptyObject("stripe_account") } else { writer.emptyObject("stripe_balance") }
                writer.field("type", debit ? "stripe_account" : "stripe_balance")
            }
        }
        guard charges.method[index] != .bankDebit else {
            return bankDebitDetails(index, writer, fingerprint: fingerprint)
        }
        let amount = charges.amount[index]
        let card = CardPaymentDetails.cards[index % CardPaymentDetails.cards.count]
        CardPaymentDetails.template.write(to: writer) { field in
            switch field {
            case .amountAuthorized, .maximumAmountCapturable: writer.int(amount)
            case .authorizationCode: writer.string(String(100_000 + (index * 7919) % 900_000))
            case .brand, .network: writer.string(card.brand)
            case .expiryMonth: writer.int(Int64(index % 12 + 1))
            case .expiryYear: writer.int(Int64(2028 + index % 5))
            case .fingerprint: writer.string(fingerprint)
            case .last4: writer.string(card.last4)
            case .installments, .threeDSecure, .wallet: writer.null()
            }
        }
    }

    /// A bank debit's details: SEPA for a eur charge, a US bank account otherwise (Stripe's fixtures have no example
    /// of either).
    private func bankDebitDetails(_ index: Int, _ writer: JSONWriter, fingerprint: String) {
        guard storage.charges.currency[index] == .eur else {
            return writer.object {
                writer.field("type", "us_bank_account")
                writer.field("us_bank_account") {
                    writer.field("account_holder_type", "individual")
                    writer.field("account_type", "checking")
                    writer.field("bank_name", "STRIPE TEST BANK")
                    writer.field("fingerprint", fingerprint)
                    writer.field("last4", "6789")
                    writer.nullField("mandate")
                    writer.nullField("payment_reference")
                    writer.field("routing_number", "110000000")
                }
            }
        }
        writer.object {
            writer.field("sepa_debit") {
                writer.field("bank_code", "37040044")
                writer.nullField("branch_code")
                writer.field("country", "DE")
                writer.field("fingerprint", fingerprint)
                writer.field("last4", "3000")
                writer.nullField("mandate")
            }
            writer.field("type", "sepa_debit")
        }
    }

    /// A charge's `source_transfer`: for an account debit, the transfer the connected account made to the platform
    /// (Stripe sets one however the platform debited), expanded on request; `null` for any other charge. A debit made
    /// by transfer (``WorldDebitLink/chargeRefundByTransfer(_:)``) names the charge there, as GOV.UK Pay labels its
    /// transfers (`metadata[stripe_charge_id]`, `reason`, and its own payment id as `transfer_group`, which names
    /// nothing the history holds); every other debit's transfer names nothing.
    private func sourceTransfer(_ index: Int, _ writer: JSONWriter, _ expand: ExpandTree) {
        let charges = storage.charges
        guard charges.method[index] == .accountDebit else { return writer.nullField("source_transfer") }
        guard expand["source_transfer"] != nil else {
            return writer.field("source_transfer", id: .debitTransfer, index)
        }
        writer.expandedObjects += 1
        // The charge whose refund share a debit made by transfer gives back: the transfer's labels name it.
        var labelled: Int?
        if case .chargeRefundByTransfer(let charge)? = charges.debitLinks[Int32(index)] { labelled = charge }
        writer.field("source_transfer") {
            writer.field("amount", charges.amount[index])
            writer.field("amount_reversed", 0)
            writer.nullField("balance_transaction")
            writer.field("created", charges.created[index])
            writer.field("currency", charges.currency[index].code)
            writer.nullField("description")
            writer.field("destination", platformAccountID)
            writer.field("destination_payment", id: chargeIDKind(index), index)
            writer.field("id", id: .debitTransfer, index)
            writer.field("livemode", false)
            if let charge = labelled {
                writer.field("metadata") {
                    writer.field("reason", "transfer_refund_amount")
                    writer.field("stripe_charge_id", id: chargeIDKind(charge), charge)
                }
            } else {
                writer.emptyObject("metadata")
            }
            writer.field("object", "transfer")
            writer.field("reversals") {
                writer.arrayField("data") {}
                writer.field("has_more", false)
                writer.field("object", "list")
                writer.field("total_count", 0)
                writer.field("url", "/v1/transfers/\(storage.ids.id(.debitTransfer, index))/reversals")
            }
            writer.field("reversed", false)
            writer.nullField("source_transaction")
            writer.field("source_type", "card")
            if let charge = labelled {
                // The platform's own payment id, which names nothing Stripe holds (GOV.UK Pay's way).
                writer.field("transfer_group", "payment_\(charge)")
            } else {
                writer.nullField("transfer_group")
            }
        }
    }

    /// A charge's `metadata`: empty, but for an account debit that names what it gives back (the charge, or its first
    /// dispute), and every other random debit, which names a charge no one made (`ch_gone_…`).
    private func debitMetadata(_ index: Int, _ writer: JSONWriter) {
        let charges = storage.charges
        switch charges.debitLinks[Int32(index)] {
        case .chargeRefund(let charge)?:
            writer.field("metadata") { writer.field("charge", id: chargeIDKind(charge), charge) }
        case .dispute(let charge)?:
            guard let dispute = charges.disputes.items(of: charge).first else { return writer.emptyObject("metadata") }
            writer.field("metadata") { writer.field("dispute", id: .dispute, Int(dispute)) }
        case .unlinked?, .chargeRefundByTransfer?:
            writer.emptyObject("metadata")
        case nil:
            // Bad input: every other random debit names a charge no one made.
            if charges.method[index] == .accountDebit, index % 178 == 17 {
                writer.field("metadata") { writer.field("charge", "ch_gone_\(index)") }
            } else {
                writer.emptyObject("metadata")
            }
        }
    }
}
