import Foundation
import ReconCore
import StripeAPI
import Testing

/// The Stripe example objects copied into this test target (`Fixtures/*.json`), and helpers that build
/// variants of them by editing the parsed JSON.
enum Fixture {
    /// The folder of JSON files inside the test bundle.
    static func folder() throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil), "the Fixtures resource is missing")
    }

    /// The bytes of `<name>.json`.
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder().appendingPathComponent("\(name).json"))
    }

    /// `<name>.json` parsed into a dictionary, ready to be edited.
    static func json(_ name: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: data(name)) as? [String: Any], "\(name).json is not an object")
    }

    /// `<name>.json` after `change`, serialized again.
    /// The object embedded at `key` of `data` (an expanded member), decoded from its own JSON as the absorber
    /// decodes it: the wire models keep only the id of an expanded member.
    static func embedded<Object: StripeObject>(_ type: Object.Type, at key: String, in data: Data) throws -> Object {
        let tape = try JSONTapeDecoder.tape(data)
        let node = try #require(tape.member(key, of: JSONTape.root))
        return try StripeJSON.decoder().decode(type, from: tape, at: node)
    }

    static func mutated(_ name: String, _ change: (inout [String: Any]) throws -> Void) throws -> Data {
        var object = try json(name)
        try change(&object)
        return try serialize(object)
    }

    /// Decodes `<name>.json`, unchanged, with the production decoder.
    static func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try StripeJSON.decode(type, from: data(name))
    }

    /// The balance transaction of a dispute's funds withdrawal, as observed in real payloads (STRIPE_NOTES §2d).
    static func disputeWithdrawal() throws -> [String: Any] {
        var json = try Fixture.json("balance_transaction")
        json["id"] = "txn_dispute_withdrawal"
        json["amount"] = -1000
        json["fee"] = 1500
        json["net"] = -2500
        json["type"] = "adjustment"
        json["reporting_category"] = "dispute"
        json["description"] = "Chargeback withdrawal for ch_1PgafuB7WZ01zgkWXYmPNZs8"
        json["source"] = "dp_1Pgc71B7WZ01zgkWMevJiAUx"
        json["fee_details"] = [
            [
                "amount": 1500, "application": NSNull(), "currency": "usd", "description": "Dispute fee",
                "type": "stripe_fee",
            ] as [String: Any]
        ]
        return json
    }

    /// Serializes a dictionary or array built in a test.
    static func serialize(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}

/// What every fixture model has, so that table-driven tests can check any of them.
protocol FixtureObject: StripeObject {
    var amount: Int64 { get }
    var currency: Currency { get }
    var created: Int64 { get }
}

extension FixtureObject {
    /// `true` when `other` is the same model type and equal.
    func isEqual(to other: any FixtureObject) -> Bool { (other as? Self) == self }
}

extension Charge: FixtureObject {}
extension PaymentIntent: FixtureObject {}
extension ApplicationFee: FixtureObject {}
extension FeeRefund: FixtureObject {}
extension Transfer: FixtureObject {}
extension TransferReversal: FixtureObject {}
extension BalanceTransaction: FixtureObject {}
extension Dispute: FixtureObject {}
extension Refund: FixtureObject {}

/// One fixture file and the model it decodes into.
enum FixtureModel: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case charge
    case paymentIntent = "payment_intent"
    case applicationFee = "application_fee"
    case feeRefund = "fee_refund"
    case transfer
    case transferReversal = "transfer_reversal"
    case balanceTransaction = "balance_transaction"
    case dispute
    case refund

    /// The fixture's file name without `.json`, which is also Stripe's `object` value.
    var fileName: String { rawValue }

    var testDescription: String { "\(rawValue).json" }

    /// The `id` written in the fixture file.
    var fixtureID: String {
        switch self {
        case .charge: "ch_1PgafuB7WZ01zgkWXYmPNZs8"
        case .paymentIntent: "pi_1PgafyB7WZ01zgkWSjxsAJo3"
        case .applicationFee: "fee_1Pgc6zB7WZ01zgkWOMh2at1m"
        case .feeRefund: "fr_1Pgc70B7WZ01zgkWSr1ANtFu"
        case .transfer: "tr_1Pgc7BB7WZ01zgkWVJfE40RX"
        case .transferReversal: "trr_1Pgc7BB7WZ01zgkWsU61ufNC"
        case .balanceTransaction: "txn_1PgaxNB7WZ01zgkWEV3TLf40"
        case .dispute: "dp_1Pgc71B7WZ01zgkWMevJiAUx"
        case .refund: "re_1Pgc72B7WZ01zgkWqPvrRrPE"
        }
    }

    /// The `amount` written in the fixture file.
    var fixtureAmount: Int64 {
        switch self {
        case .charge, .applicationFee, .feeRefund, .balanceTransaction, .refund: 100
        case .paymentIntent: 1099
        case .transfer, .transferReversal: 1100
        case .dispute: 1000
        }
    }

    /// Decodes `data` as this fixture's model.
    func decode(_ data: Data) throws -> any FixtureObject {
        switch self {
        case .charge: try StripeJSON.decode(Charge.self, from: data)
        case .paymentIntent: try StripeJSON.decode(PaymentIntent.self, from: data)
        case .applicationFee: try StripeJSON.decode(ApplicationFee.self, from: data)
        case .feeRefund: try StripeJSON.decode(FeeRefund.self, from: data)
        case .transfer: try StripeJSON.decode(Transfer.self, from: data)
        case .transferReversal: try StripeJSON.decode(TransferReversal.self, from: data)
        case .balanceTransaction: try StripeJSON.decode(BalanceTransaction.self, from: data)
        case .dispute: try StripeJSON.decode(Dispute.self, from: data)
        case .refund: try StripeJSON.decode(Refund.self, from: data)
        }
    }

    /// Decodes `data` as a `StripeList` of this fixture's model; returns `has_more` and the items' ids.
    func decodeList(_ data: Data) throws -> (hasMore: Bool, ids: [String]) {
        func page<Item: StripeObject>(_ type: Item.Type) throws -> (hasMore: Bool, ids: [String]) {
            let list = try StripeJSON.decode(StripeList<Item>.self, from: data)
            return (list.hasMore, list.data.map(\.id))
        }
        return switch self {
        case .charge: try page(Charge.self)
        case .paymentIntent: try page(PaymentIntent.self)
        case .applicationFee: try page(ApplicationFee.self)
        case .feeRefund: try page(FeeRefund.self)
        case .transfer: try page(Transfer.self)
        case .transferReversal: try page(TransferReversal.self)
        case .balanceTransaction: try page(BalanceTransaction.self)
        case .dispute: try page(Dispute.self)
        case .refund: try page(Refund.self)
        }
    }

    /// Decodes the unchanged fixture file.
    func decodeFixture() throws -> any FixtureObject {
        try decode(Fixture.data(fileName))
    }
}
