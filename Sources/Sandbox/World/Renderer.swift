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
        case "ch": return find(.charge, storage.charges.count).map(ObjectRef.charge)
        case "pi": return find(.paymentIntent, storage.charges.count).map(ObjectRef.paymentIntent)
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

    func optional(_ index: Int32, _ make: (Int) -> ObjectRef) -> ObjectRef? {
        index >= 0 ? make(Int(index)) : nil
    }

    /// A nested list (`transfer.reversals`, `application_fee.refunds`, expanded `charge.refunds`): the 10 most
    /// recent items, `has_more` when there are more, and the URL that pages the rest.
    func nestedList(
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
