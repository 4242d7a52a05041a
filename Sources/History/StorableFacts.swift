import GRDB
import ReconCore

/// A facts type the history keeps in a table of its own, one row per object id.
protocol StorableFacts: Codable, Sendable {
    static var kind: ObjectKind { get }
    static var table: String { get }
    var id: String { get }
}

extension ChargeFacts: StorableFacts {
    static var kind: ObjectKind { .charge }
    static var table: String { "charges" }
}

extension PaymentIntentFacts: StorableFacts {
    static var kind: ObjectKind { .paymentIntent }
    static var table: String { "payment_intents" }
}

extension TransferFacts: StorableFacts {
    static var kind: ObjectKind { .transfer }
    static var table: String { "transfers" }
}

extension TransferReversalFacts: StorableFacts {
    static var kind: ObjectKind { .transferReversal }
    static var table: String { "transfer_reversals" }
}

extension ApplicationFeeFacts: StorableFacts {
    static var kind: ObjectKind { .applicationFee }
    static var table: String { "application_fees" }
}

extension FeeRefundFacts: StorableFacts {
    static var kind: ObjectKind { .feeRefund }
    static var table: String { "fee_refunds" }
}

extension RefundFacts: StorableFacts {
    static var kind: ObjectKind { .refund }
    static var table: String { "refunds" }
}

extension DisputeFacts: StorableFacts {
    static var kind: ObjectKind { .dispute }
    static var table: String { "disputes" }
}

extension BalanceTransactionFacts: StorableFacts {
    static var kind: ObjectKind { .balanceTransaction }
    static var table: String { "balance_transactions" }
}

// MARK: - The one place facts map to and from rows

/// Encodes facts as the columns of their table (the facts' coding keys are the column names).
struct FactsRecord<Facts: StorableFacts>: EncodableRecord, Encodable {
    let facts: Facts
    func encode(to encoder: any Encoder) throws { try facts.encode(to: encoder) }
}

/// Decodes facts from a row of their table; the raw JSON and run columns are not read.
struct FactsRow<Facts: StorableFacts>: FetchableRecord, Decodable {
    let facts: Facts
    init(from decoder: any Decoder) throws { facts = try Facts(from: decoder) }
}
