/// One object of the world.
enum ObjectRef: Sendable, Equatable {
    case charge(Int)
    case paymentIntent(Int)
    case transfer(Int)
    case transferReversal(Int)
    case applicationFee(Int)
    case feeRefund(Int)
    case refund(Int)
    case dispute(Int)
    case balanceTransaction(Int)
    case payout(Int)

    var kind: ObjectKind {
        switch self {
        case .charge: .charge
        case .paymentIntent: .paymentIntent
        case .transfer: .transfer
        case .transferReversal: .transferReversal
        case .applicationFee: .applicationFee
        case .feeRefund: .feeRefund
        case .refund: .refund
        case .dispute: .dispute
        case .balanceTransaction: .balanceTransaction
        case .payout: .payout
        }
    }
}

/// Object kinds, with the fields Stripe lets a request expand on each.
enum ObjectKind: String, Sendable, CaseIterable {
    case charge
    case paymentIntent = "payment_intent"
    case transfer
    case transferReversal = "transfer_reversal"
    case applicationFee = "application_fee"
    case feeRefund = "fee_refund"
    case refund, dispute
    case balanceTransaction = "balance_transaction"
    case payout

    /// Expandable field → what it expands to.
    var expandable: [String: ExpandTarget] {
        switch self {
        case .charge:
            [
                "payment_intent": .object(.paymentIntent), "balance_transaction": .object(.balanceTransaction),
                "transfer": .object(.transfer), "application_fee": .object(.applicationFee),
                "failure_balance_transaction": .object(.balanceTransaction), "refunds": .list(.refund),
            ]
        case .paymentIntent: ["latest_charge": .object(.charge)]
        case .transfer:
            [
                "balance_transaction": .object(.balanceTransaction), "source_transaction": .object(.charge),
                "reversals": .list(.transferReversal),
            ]
        case .transferReversal:
            [
                "balance_transaction": .object(.balanceTransaction), "transfer": .object(.transfer),
                "source_refund": .object(.refund),
            ]
        case .applicationFee:
            [
                "balance_transaction": .object(.balanceTransaction), "originating_transaction": .object(.charge),
                "refunds": .list(.feeRefund),
            ]
        case .feeRefund: ["balance_transaction": .object(.balanceTransaction), "fee": .object(.applicationFee)]
        case .refund:
            [
                "balance_transaction": .object(.balanceTransaction), "charge": .object(.charge),
                "payment_intent": .object(.paymentIntent), "transfer_reversal": .object(.transferReversal),
            ]
        case .dispute: ["charge": .object(.charge), "payment_intent": .object(.paymentIntent)]
        case .balanceTransaction: ["source": .polymorphic]
        case .payout:
            [
                "balance_transaction": .object(.balanceTransaction),
                "failure_balance_transaction": .object(.balanceTransaction),
            ]
        }
    }
}

/// What an expandable field expands to.
enum ExpandTarget: Sendable {
    /// One object of a kind.
    case object(ObjectKind)
    /// A list of objects of a kind (`charge.refunds`): its items are reached through `data`.
    case list(ObjectKind)
    /// An object of one of several kinds (`balance_transaction.source`): not checked deeper.
    case polymorphic
}

/// The `expand[]` paths of a request as a tree (`data.payment_intent.latest_charge`).
struct ExpandTree: Sendable {
    var children: [String: ExpandTree] = [:]

    subscript(_ field: String) -> ExpandTree? { children[field] }

    mutating func insert<S: Collection>(_ path: S) where S.Element == Substring, S.SubSequence: Collection {
        guard let first = path.first else { return }
        var child = children[String(first)] ?? ExpandTree()
        child.insert(path.dropFirst())
        children[String(first)] = child
    }

    /// The first path that `kind` cannot expand, or `nil` when all can be.
    func invalidPath(for kind: ObjectKind, prefix: String = "") -> String? {
        for (field, child) in children.sorted(by: { $0.key < $1.key }) {
            let path = prefix.isEmpty ? field : prefix + "." + field
            switch kind.expandable[field] {
            case nil:
                return path
            case .object(let target):
                if let invalid = child.invalidPath(for: target, prefix: path) { return invalid }
            case .list(let item):
                // A list's items are reached through `data`: `refunds.data.balance_transaction`.
                for (listField, items) in child.children.sorted(by: { $0.key < $1.key }) {
                    guard listField == "data" else { return path + "." + listField }
                    if let invalid = items.invalidPath(for: item, prefix: path + ".data") { return invalid }
                }
            case .polymorphic:
                continue
            }
        }
        return nil
    }

    /// What a nested list's items expand: the subtree under `field.data`.
    func items(of field: String) -> ExpandTree { children[field]?.children["data"] ?? ExpandTree() }
}

/// Writes the world's objects as Stripe's JSON, field for field as Stripe's API reference and the fixtures
/// show them. Reads only the world's tables.
struct Renderer: Sendable {
    let storage: WorldStorage
    private var s: WorldStorage { storage }

    init(storage: WorldStorage) { self.storage = storage }

    // MARK: Lookup

    func lookup(id: some StringProtocol) -> ObjectRef? {
        guard let underscore = id.firstIndex(of: "_") else { return nil }
        let ids = s.ids
        func find(_ kind: StripeIDKind, _ count: Int) -> Int? {
            guard let index = ids.index(of: id, kind: kind), index < count else { return nil }
            return index
        }
        switch id[..<underscore] {
        case "ch": return find(.charge, s.charges.count).map(ObjectRef.charge)
        case "pi": return find(.paymentIntent, s.charges.count).map(ObjectRef.paymentIntent)
        case "tr": return find(.transfer, s.transfers.count).map(ObjectRef.transfer)
        case "trr": return find(.transferReversal, s.reversals.count).map(ObjectRef.transferReversal)
        case "fee": return find(.applicationFee, s.fees.count).map(ObjectRef.applicationFee)
        case "fr": return find(.feeRefund, s.feeRefunds.count).map(ObjectRef.feeRefund)
        case "re": return find(.refund, s.refunds.count).map(ObjectRef.refund)
        case "dp": return find(.dispute, s.disputes.count).map(ObjectRef.dispute)
        case "txn": return find(.balanceTransaction, s.balanceTransactions.count).map(ObjectRef.balanceTransaction)
        case "po": return find(.payout, s.payouts.count).map(ObjectRef.payout)
        default: return nil
        }
    }

    func render(_ object: ObjectRef, to w: JSONWriter, expand: ExpandTree) {
        switch object {
        case .charge(let i): charge(i, w, expand)
        case .paymentIntent(let i): paymentIntent(i, w, expand)
        case .transfer(let i): transfer(i, w, expand)
        case .transferReversal(let i): transferReversal(i, w, expand)
        case .applicationFee(let i): applicationFee(i, w, expand)
        case .feeRefund(let i): feeRefund(i, w, expand)
        case .refund(let i): refund(i, w, expand)
        case .dispute(let i): dispute(i, w, expand)
        case .balanceTransaction(let i): balanceTransaction(i, w, expand)
        case .payout(let i): payout(i, w, expand)
        }
    }

    /// A reference field: the id, or the expanded object when the request asked for it.
    func reference(
        _ name: StaticString, _ w: JSONWriter, _ expand: ExpandTree, _ field: String, _ object: ObjectRef?
    ) {
        w.key(name)
        guard let object else { return w.null() }
        if let subtree = expand[field] {
            w.expandedObjects += 1
            render(object, to: w, expand: subtree)
        } else {
            switch object {
            case .charge(let i): w.id(.charge, i)
            case .paymentIntent(let i): w.id(.paymentIntent, i)
            case .transfer(let i): w.id(.transfer, i)
            case .transferReversal(let i): w.id(.transferReversal, i)
            case .applicationFee(let i): w.id(.applicationFee, i)
            case .feeRefund(let i): w.id(.feeRefund, i)
            case .refund(let i): w.id(.refund, i)
            case .dispute(let i): w.id(.dispute, i)
            case .balanceTransaction(let i): w.id(.balanceTransaction, i)
            case .payout(let i): w.id(.payout, i)
            }
        }
    }

    private func optional(_ index: Int32, _ make: (Int) -> ObjectRef) -> ObjectRef? {
        index >= 0 ? make(Int(index)) : nil
    }

    /// A nested list (`transfer.reversals`, `application_fee.refunds`, expanded `charge.refunds`): the 10 most
    /// recent items, `has_more` when there are more, and the URL that pages the rest.
    private func nestedList(
        _ w: JSONWriter, items: ArraySlice<Int32>, url: String, render item: (Int) -> Void
    ) {
        w.object {
            w.arrayField("data") {
                for index in items.reversed().prefix(10) { item(Int(index)) }
            }
            w.field("has_more", items.count > 10)
            w.field("object", "list")
            w.field("url", url)
        }
    }

    private var applicationID: String {
        "ca_" + s.ids.id(.account, 0).dropFirst(5) + "0Platform0Connect0R"
    }

    private static let names = [
        "Jenny Rosen", "Ada Lovelace", "Alan Turing", "Grace Hopper", "Katherine Johnson", "Linus Pauling",
        "Marie Curie", "Niels Bohr", "Rosalind Franklin", "Tim Berners-Lee",
    ]

    // MARK: Charge

    func charge(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let c = s.charges
        let amount = c.amount[i]
        let status = c.status[i]
        let currency = c.currency[i].code
        let idString = s.ids.id(.charge, i)
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
            w.nullField("on_behalf_of")
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
            if c.transfer[i] >= 0 {
                reference("transfer", w, expand, "transfer", .transfer(Int(c.transfer[i])))
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
            w.field("transfer_group", c.intentDestination[i] >= 0 ? "group_" + s.ids.id(.paymentIntent, i) : nil)
            w.nullField("source")
        }
    }

    private func paymentMethodDetails(_ i: Int, _ w: JSONWriter) {
        let c = s.charges
        let fingerprint = String(s.ids.id(.paymentMethod, i).suffix(16))
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

    // MARK: PaymentIntent

    func paymentIntent(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let c = s.charges
        let status = c.status[i]
        let piID = s.ids.id(.paymentIntent, i)
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
            w.field("client_secret", piID + "_secret_" + String(s.ids.id(.paymentMethod, i).suffix(25)))
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
            w.nullField("on_behalf_of")
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

    // MARK: Transfers and reversals

    func transfer(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let t = s.transfers
        let idString = s.ids.id(.transfer, i)
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
                "destination_payment", id: .connectedPayment, t.role[i] == .destination ? source : s.charges.count + i)
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
                t.role[i] == .destination && s.charges.intentDestination[source] >= 0
                    ? "group_" + s.ids.id(.paymentIntent, source) : nil)
        }
    }

    func transferReversal(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let v = s.reversals
        let transfer = Int(v.transfer[i])
        w.object {
            w.field("amount", v.amount[i])
            reference(
                "balance_transaction", w, expand, "balance_transaction",
                optional(v.balanceTransaction[i], ObjectRef.balanceTransaction))
            w.field("created", v.created[i])
            w.field("currency", s.transfers.currency[transfer].code)
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

    // MARK: Application fees

    func applicationFee(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let f = s.fees
        let charge = Int(f.charge[i])
        let idString = s.ids.id(.applicationFee, i)
        w.object {
            w.field("account", id: .account, Int(s.charges.intentDestination[charge]))
            w.field("amount", f.amount[i])
            w.field("amount_refunded", f.amountRefunded[i])
            w.field("application", applicationID)
            reference(
                "balance_transaction", w, expand, "balance_transaction",
                optional(f.balanceTransaction[i], ObjectRef.balanceTransaction))
            w.field("charge", id: .connectedPayment, charge)
            w.field("created", f.created[i])
            w.field("currency", s.charges.currency[charge].code)
            w.field("fee_source") {
                w.field("charge", id: .connectedPayment, charge)
                w.field("type", "charge")
            }
            w.field("id", idString)
            w.field("livemode", false)
            w.field("object", "application_fee")
            reference("originating_transaction", w, expand, "originating_transaction", .charge(charge))
            w.field("refunded", f.amountRefunded[i] == f.amount[i])
            w.key("refunds")
            let refundExpansions = expand.items(of: "refunds")
            nestedList(w, items: f.refunds.items(of: i), url: "/v1/application_fees/\(idString)/refunds") {
                feeRefund($0, w, refundExpansions)
            }
        }
    }

    func feeRefund(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let fr = s.feeRefunds
        let fee = Int(fr.fee[i])
        w.object {
            w.field("amount", fr.amount[i])
            reference(
                "balance_transaction", w, expand, "balance_transaction",
                optional(fr.balanceTransaction[i], ObjectRef.balanceTransaction))
            w.field("created", fr.created[i])
            w.field("currency", s.charges.currency[Int(s.fees.charge[fee])].code)
            reference("fee", w, expand, "fee", .applicationFee(fee))
            w.field("id", id: .feeRefund, i)
            w.emptyObject("metadata")
            w.field("object", "fee_refund")
        }
    }

    // MARK: Refunds and disputes

    func refund(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let r = s.refunds
        let charge = Int(r.charge[i])
        let bankDebit = s.charges.method[charge] == .bankDebit
        w.object {
            w.field("amount", r.amount[i])
            reference(
                "balance_transaction", w, expand, "balance_transaction",
                optional(r.balanceTransaction[i], ObjectRef.balanceTransaction))
            reference("charge", w, expand, "charge", .charge(charge))
            w.field("created", r.created[i])
            w.field("currency", s.charges.currency[charge].code)
            w.field("destination_details") {
                if bankDebit {
                    w.field("type", "us_bank_account")
                    w.emptyObject("us_bank_account")
                } else {
                    w.field("card") {
                        w.field("reference", String(7_000_000_000 + i))
                        w.field("reference_status", "available")
                        w.field("reference_type", "acquirer_reference_number")
                        w.field("type", "refund")
                    }
                    w.field("type", "card")
                }
            }
            w.field("id", id: .refund, i)
            w.emptyObject("metadata")
            w.field("object", "refund")
            reference("payment_intent", w, expand, "payment_intent", .paymentIntent(charge))
            w.field("reason", "requested_by_customer")
            w.nullField("receipt_number")
            w.nullField("source_transfer_reversal")
            w.field("status", "succeeded")
            reference(
                "transfer_reversal", w, expand, "transfer_reversal",
                optional(r.transferReversal[i], ObjectRef.transferReversal))
            w.nullField("customer")
            w.nullField("customer_account")
            w.field("payment_method", id: .paymentMethod, charge)
        }
    }

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
        let d = s.disputes
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
            w.field("currency", s.charges.currency[charge].code)
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
                if s.charges.method[charge] == .bankDebit {
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

    // MARK: Balance transactions

    func balanceTransaction(_ i: Int, _ w: JSONWriter, _ expand: ExpandTree) {
        let b = s.balanceTransactions
        let type = b.type[i]
        let currency = b.currency[i].code
        let source = Int(b.source[i])
        let sourceRef: ObjectRef =
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
        let pending = b.pending[i] || b.availableOn[i] > s.end
        w.object {
            w.field("amount", b.amount[i])
            w.field("available_on", b.availableOn[i])
            w.field("created", b.created[i])
            w.field("currency", currency)
            switch type {
            case .disputeWithdrawal, .disputeReinstatement:
                let charge = s.ids.id(.charge, Int(s.disputes.charge[source]))
                w.field(
                    "description",
                    (type == .disputeWithdrawal ? "Chargeback withdrawal for " : "Chargeback reversal for ") + charge)
            case .transferRefund: w.field("description", "Transfer reversal")
            case .payout: w.field("description", "STRIPE PAYOUT")
            default: w.nullField("description")
            }
            w.key("exchange_rate")
            if b.rate[i] != 0 { w.rawNumber(Renderer.decimal(b.rate[i])) } else { w.null() }
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
            w.field("balance_type", "payments")
        }
    }

    /// `1086245` millionths → `1.086245` (trailing zeros dropped, as JSON numbers are written).
    static func decimal(_ millionths: Int32) -> String {
        let whole = millionths / 1_000_000
        var fraction = String(millionths % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}
