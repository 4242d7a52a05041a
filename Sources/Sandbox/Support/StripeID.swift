/// Stripe-looking object ids that carry their own index, so a retrieve by id needs no dictionary.
///
/// An id is `<prefix>_1<tag><index><check>`: `tag` is derived from the seed (one world's ids never resolve
/// in another's), `index` is the object's position in its table in fixed-width base 62, and `check` is a
/// hash of both, so ids look random and a mistyped id is rejected instead of resolving to a neighbour.
/// The base-62 alphabet is in ASCII order, so within one kind the ids sort like their indexes.
package enum StripeIDKind: Int, CaseIterable, Sendable {
    case charge, paymentIntent, transfer, transferReversal, applicationFee, feeRefund, refund, dispute
    case balanceTransaction, connectedPayment, connectedPaymentRefund, account, paymentMethod, request
    // New kinds go last: a kind's raw value is part of its ids' check characters.
    case payout, bankAccount
    /// A `connect_collection_transfer` (no endpoint serves one; the prefix is the sandbox's own).
    case collectionTransfer
    /// A platform charge paid by a connected account (an account debit, a payment from its balance): `py_…`.
    case accountPayment
    /// The transfer a connected account made to the platform for an account debit (its `source_transfer`): a
    /// connected account's object, by the index of the debit.
    case debitTransfer

    var prefix: String {
        switch self {
        case .charge: "ch"
        case .paymentIntent: "pi"
        case .transfer: "tr"
        case .transferReversal: "trr"
        case .applicationFee: "fee"
        case .feeRefund: "fr"
        case .refund: "re"
        case .dispute: "dp"
        case .balanceTransaction: "txn"
        case .connectedPayment: "py"
        case .connectedPaymentRefund: "pyr"
        case .account: "acct"
        case .paymentMethod: "pm"
        case .request: "req"
        case .payout: "po"
        case .bankAccount: "ba"
        case .collectionTransfer: "connct"
        case .accountPayment: "py"
        case .debitTransfer: "tr"
        }
    }

    /// Widths of the tag, index and check parts: 24 characters after the prefix like Stripe's ids,
    /// 16 for accounts (`acct_1PgafTB7WZ01zgkW`), 14 for request ids.
    fileprivate var widths: (tag: Int, index: Int, check: Int) {
        switch self {
        case .account: (8, 3, 4)
        case .request: (3, 7, 3)
        default: (10, 7, 6)
        }
    }
}

package struct StripeIDCodec: Sendable {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = Int8(value) }
        return table
    }()

    private let seed: UInt64
    private let tag: [UInt8]

    init(seed: UInt64) {
        self.seed = seed
        var rng = SplitMix64(seed: seed ^ 0x5EED_1D5)
        tag = (0..<10).map { _ in StripeIDCodec.alphabet[Int(rng.next() % 62)] }
    }

    /// The id of object `index` of `kind`.
    package func id(_ kind: StripeIDKind, _ index: Int) -> String {
        var bytes = Array(kind.prefix.utf8)
        bytes.reserveCapacity(30)
        bytes.append(UInt8(ascii: "_"))
        appendBody(kind, index, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `prefix_body` to a byte buffer (the renderers' fast path).
    func append(_ kind: StripeIDKind, _ index: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: kind.prefix.utf8)
        bytes.append(UInt8(ascii: "_"))
        appendBody(kind, index, to: &bytes)
    }

    private func appendBody(_ kind: StripeIDKind, _ index: Int, to bytes: inout [UInt8]) {
        let widths = kind.widths
        bytes.append(UInt8(ascii: "1"))
        bytes.append(contentsOf: tag[0..<widths.tag])
        var digits = [UInt8](repeating: StripeIDCodec.alphabet[0], count: widths.index)
        var rest = index
        for position in stride(from: widths.index - 1, through: 0, by: -1) {
            digits[position] = StripeIDCodec.alphabet[rest % 62]
            rest /= 62
        }
        bytes.append(contentsOf: digits)
        var check = checkValue(kind, index)
        for _ in 0..<widths.check {
            bytes.append(StripeIDCodec.alphabet[Int(check % 62)])
            check /= 62
        }
    }

    private func checkValue(_ kind: StripeIDKind, _ index: Int) -> UInt64 {
        SplitMix64.mix(seed &+ UInt64(kind.rawValue) &* 0x1000_0000_0000 &+ UInt64(index))
    }

    /// The index an id of `kind` names, or `nil` when it is not an id this world could have issued.
    /// The caller still checks the index against its table's count.
    func index(of id: some StringProtocol, kind: StripeIDKind) -> Int? {
        let bytes = Array(id.utf8)
        let prefix = Array(kind.prefix.utf8)
        let widths = kind.widths
        let bodyStart = prefix.count + 1
        guard bytes.count == bodyStart + 1 + widths.tag + widths.index + widths.check,
            bytes.starts(with: prefix), bytes[prefix.count] == UInt8(ascii: "_"),
            bytes[bodyStart] == UInt8(ascii: "1"),
            bytes[(bodyStart + 1)..<(bodyStart + 1 + widths.tag)].elementsEqual(tag[0..<widths.tag])
        else { return nil }
        var index = 0
        let indexStart = bodyStart + 1 + widths.tag
        for byte in bytes[indexStart..<(indexStart + widths.index)] {
            let value = StripeIDCodec.values[Int(byte)]
            guard value >= 0 else { return nil }
            index = index * 62 + Int(value)
        }
        guard self.id(kind, index) == String(decoding: bytes, as: UTF8.self) else { return nil }
        return index
    }
}
