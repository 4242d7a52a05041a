import ReconCore

// `expand[]`: which fields of each kind expand to what, and the paths a request asked for as a tree.

extension ObjectKind {
    /// The fields Stripe lets a request expand on an object of the kind, each with what it expands to.
    var expandable: [String: ExpandTarget] {
        switch self {
        case .charge:
            [
                "payment_intent": .object(.paymentIntent), "balance_transaction": .object(.balanceTransaction),
                "transfer": .object(.transfer), "application_fee": .object(.applicationFee),
                "failure_balance_transaction": .object(.balanceTransaction), "refunds": .list(.refund),
                // An account debit's transfer on the connected account: no kind of the platform's.
                "source_transfer": .polymorphic,
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
                "failure_balance_transaction": .object(.balanceTransaction),
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
