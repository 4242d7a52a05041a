import ReconCore

/// Writes the world's objects as Stripe's JSON, field for field as Stripe's API reference and the fixtures
/// show them. Reads only the world's tables.
struct Renderer: Sendable {
    let storage: WorldStorage

    init(storage: WorldStorage) { self.storage = storage }

    // MARK: Lookup

    func lookup(id: some StringProtocol) -> ObjectRef? {
        guard let underscore = id.firstIndex(of: "_") else { return nil }
        let ids = storage.ids
        func find(_ kind: StripeIDKind, _ count: Int) -> Int? {
            guard let index = ids.index(of: id, kind: kind), index < count else { return nil }
            return index
        }
        switch id[..<underscore] {
        case "ch":
            return find(.charge, storage.charges.count).flatMap { isFromAnAccount($0) ? nil : ObjectRef.charge($0) }
        case "py":
            return find(.accountPayment, storage.charges.count).flatMap {
                isFromAnAccount($0) ? ObjectRef.charge($0) : nil
            }
        case "pi":
            // A payment from an account has no PaymentIntent.
            return find(.paymentIntent, storage.charges.count).flatMap {
                isFromAnAccount($0) ? nil : ObjectRef.paymentIntent($0)
            }
        case "tr": return find(.transfer, storage.transfers.count).map(ObjectRef.transfer)
        case "trr": return find(.transferReversal, storage.reversals.count).map(ObjectRef.transferReversal)
        case "fee": return find(.applicationFee, storage.fees.count).map(ObjectRef.applicationFee)
        case "fr": return find(.feeRefund, storage.feeRefunds.count).map(ObjectRef.feeRefund)
        case "re": return find(.refund, storage.refunds.count).map(ObjectRef.refund)
        case "dp": return find(.dispute, storage.disputes.count).map(ObjectRef.dispute)
        case "txn":
            return find(.balanceTransaction, storage.balanceTransactions.count).map(ObjectRef.balanceTransaction)
        case "po": return find(.payout, storage.payouts.count).map(ObjectRef.payout)
        default: return nil
        }
    }

    /// Whether charge `index` was paid by a connected account (its id is `py_…`, it has no PaymentIntent).
    func isFromAnAccount(_ index: Int) -> Bool { storage.charges.method[index].isFromAnAccount }

    /// The kind of id charge `index` carries.
    func chargeIDKind(_ index: Int) -> StripeIDKind { isFromAnAccount(index) ? .accountPayment : .charge }

    func render(_ object: ObjectRef, to writer: JSONWriter, expand: ExpandTree) {
        switch object {
        case .charge(let index): charge(index, writer, expand)
        case .paymentIntent(let index): paymentIntent(index, writer, expand)
        case .transfer(let index): transfer(index, writer, expand)
        case .transferReversal(let index): transferReversal(index, writer, expand)
        case .applicationFee(let index): applicationFee(index, writer, expand)
        case .feeRefund(let index): feeRefund(index, writer, expand)
        case .refund(let index): refund(index, writer, expand)
        case .dispute(let index): dispute(index, writer, expand)
        case .balanceTransaction(let index): balanceTransaction(index, writer, expand)
        case .payout(let index): payout(index, writer, expand)
        }
    }

    /// A reference field: the id, or the expanded object when the request asked for it.
    func reference(
        _ name: StaticString, _ writer: JSONWriter, _ expand: ExpandTree, _ field: String, _ object: ObjectRef?
    ) {
        writer.key(name)
        guard let object else { return writer.null() }
        if let subtree = expand[field] {
            writer.expandedObjects += 1
            render(object, to: writer, expand: subtree)
        } else {
            switch object {
            case .charge(let index): writer.id(chargeIDKind(index), index)
            case .paymentIntent(let index): writer.id(.paymentIntent, index)
            case .transfer(let index): writer.id(.transfer, index)
            case .transferReversal(let index): writer.id(.transferReversal, index)
            case .applicationFee(let index): writer.id(.applicationFee, index)
            case .feeRefund(let index): writer.id(.feeRefund, index)
            case .refund(let index): writer.id(.refund, index)
            case .dispute(let index): writer.id(.dispute, index)
            case .balanceTransaction(let index): writer.id(.balanceTransaction, index)
            case .payout(let index): writer.id(.payout, index)
            }
        }
    }

    func optional(_ index: Int32, _ make: (Int) -> ObjectRef) -> ObjectRef? {
        index >= 0 ? make(Int(index)) : nil
    }

    /// A nested list (`transfer.reversals`, `application_fee.refunds`, expanded `charge.refunds`): the 10 most
    /// recent items, `has_more` when there are more, and the URL that pages the rest.
    func nestedList(
        _ writer: JSONWriter, items: ArraySlice<Int32>, url: String, render item: (Int) -> Void
    ) {
        writer.object {
            writer.arrayField("data") {
                for index in items.reversed().prefix(10) { item(Int(index)) }
            }
            writer.field("has_more", items.count > 10)
            writer.field("object", "list")
            writer.field("url", url)
        }
    }

    /// The platform's own account id (the `destination` of a connected account's transfer to it).
    var platformAccountID: String { "acct_" + storage.ids.id(.account, 0).dropFirst(5).prefix(8) + "Platform" }

    var applicationID: String {
        "ca_" + storage.ids.id(.account, 0).dropFirst(5) + "0Platform0Connect0R"
    }

    static let names = [
        "Jenny Rosen", "Ada Lovelace", "Alan Turing", "Grace Hopper", "Katherine Johnson", "Linus Pauling",
        "Marie Curie", "Niels Bohr", "Rosalind Franklin", "Tim Berners-Lee",
    ]

    /// Stripe's `exchange_rate` for a conversion from `from` to `to` at `millionths` of a `to` minor unit per `from`
    /// minor unit: major units of `to` per major unit of `from` (usd → jpy at `1_500_000` is `150.0`, eur → usd at
    /// `1_086_245` is `1.086245`).
    static func exchangeRate(_ millionths: Int32, from: WorldCurrency, to: WorldCurrency) -> String {
        decimal(Int64(millionths), scale: 6 - from.minorUnitDigits + to.minorUnitDigits)
    }

    /// `value / 10^scale` as a JSON number, trailing zeros dropped (`1086245`, 6 → `1.086245`).
    static func decimal(_ value: Int64, scale: Int) -> String {
        var divisor: Int64 = 1
        for _ in 0..<scale { divisor *= 10 }
        var fraction = String(value % divisor)
        fraction = String(repeating: "0", count: scale - fraction.count) + fraction
        while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(value / divisor).\(fraction)"
    }
}
