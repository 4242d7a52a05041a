import Foundation
import ReconCore
import StripeAPI
import Testing

/// A field that Stripe sends as an id or expanded, in one of the fixtures.
struct ExpandableField: Sendable, CustomTestStringConvertible {
    /// The fixture that holds the field.
    let model: FixtureModel
    /// The JSON key.
    let key: String
    /// The id the field names.
    let id: String
    /// The expanded form: a fixture, or (for unmodelled objects) a minimal object.
    let expanded: Expanded
    /// Reads the field's id from the decoded model.
    let read: @Sendable (any FixtureObject) -> String?

    enum Expanded: Sendable {
        case fixture(FixtureModel)
        case minimal(object: String)
    }

    var testDescription: String { "\(model.fileName).\(key)" }

    func expandedJSON() throws -> [String: Any] {
        switch expanded {
        case .fixture(let model):
            var json = try Fixture.json(model.fileName)
            json["id"] = id
            return json
        case .minimal(let object):
            return ["id": id, "object": object, "some_field": ["nested": 1]]
        }
    }

    static let all: [ExpandableField] = [
        ExpandableField(
            model: .charge, key: "balance_transaction", id: "txn_1", expanded: .fixture(.balanceTransaction),
            read: { ($0 as? Charge)?.balanceTransaction?.id }),
        ExpandableField(
            model: .charge, key: "application_fee", id: "fee_1", expanded: .fixture(.applicationFee),
            read: { ($0 as? Charge)?.applicationFee?.id }),
        ExpandableField(
            model: .charge, key: "transfer", id: "tr_1", expanded: .fixture(.transfer),
            read: { ($0 as? Charge)?.transfer?.id }),
        ExpandableField(
            model: .charge, key: "payment_intent", id: "pi_1", expanded: .fixture(.paymentIntent),
            read: { ($0 as? Charge)?.paymentIntent?.id }),
        ExpandableField(
            model: .charge, key: "on_behalf_of", id: "acct_1", expanded: .minimal(object: "account"),
            read: { ($0 as? Charge)?.onBehalfOf?.id }),
        ExpandableField(
            model: .paymentIntent, key: "latest_charge", id: "ch_1", expanded: .fixture(.charge),
            read: { ($0 as? PaymentIntent)?.latestCharge?.id }),
        ExpandableField(
            model: .applicationFee, key: "account", id: "acct_1", expanded: .minimal(object: "account"),
            read: { ($0 as? ApplicationFee)?.account.id }),
        ExpandableField(
            model: .applicationFee, key: "application", id: "ca_1", expanded: .minimal(object: "application"),
            read: { ($0 as? ApplicationFee)?.application?.id }),
        ExpandableField(
            model: .applicationFee, key: "charge", id: "py_1", expanded: .fixture(.charge),
            read: { ($0 as? ApplicationFee)?.charge.id }),
        ExpandableField(
            model: .applicationFee, key: "originating_transaction", id: "ch_1", expanded: .fixture(.charge),
            read: { ($0 as? ApplicationFee)?.originatingTransaction?.id }),
        ExpandableField(
            model: .feeRefund, key: "fee", id: "fee_1", expanded: .fixture(.applicationFee),
            read: { ($0 as? FeeRefund)?.fee.id }),
        ExpandableField(
            model: .transfer, key: "destination", id: "acct_1", expanded: .minimal(object: "account"),
            read: { ($0 as? Transfer)?.destination?.id }),
        ExpandableField(
            model: .transfer, key: "destination_payment", id: "py_1", expanded: .fixture(.charge),
            read: { ($0 as? Transfer)?.destinationPayment?.id }),
        ExpandableField(
            model: .transfer, key: "source_transaction", id: "ch_1", expanded: .fixture(.charge),
            read: { ($0 as? Transfer)?.sourceTransaction?.id }),
        ExpandableField(
            model: .transferReversal, key: "transfer", id: "tr_1", expanded: .fixture(.transfer),
            read: { ($0 as? TransferReversal)?.transfer.id }),
        ExpandableField(
            model: .transferReversal, key: "source_refund", id: "re_1", expanded: .fixture(.refund),
            read: { ($0 as? TransferReversal)?.sourceRefund?.id }),
        ExpandableField(
            model: .dispute, key: "charge", id: "ch_1", expanded: .fixture(.charge),
            read: { ($0 as? Dispute)?.charge.id }),
        ExpandableField(
            model: .dispute, key: "payment_intent", id: "pi_1", expanded: .fixture(.paymentIntent),
            read: { ($0 as? Dispute)?.paymentIntent?.id }),
        ExpandableField(
            model: .refund, key: "charge", id: "ch_1", expanded: .fixture(.charge),
            read: { ($0 as? Refund)?.charge?.id }),
        ExpandableField(
            model: .refund, key: "transfer_reversal", id: "trr_1", expanded: .fixture(.transferReversal),
            read: { ($0 as? Refund)?.transferReversal?.id }),
        ExpandableField(
            model: .balanceTransaction, key: "source", id: "ch_1", expanded: .fixture(.charge),
            read: { ($0 as? BalanceTransaction)?.source?.id }),
    ]
}

@Test(arguments: ExpandableField.all)
func idFieldAsStringOrExpandedObjectDecodesToTheSameID(field: ExpandableField) throws {
    // Given the same field once as an id and once expanded
    let asString = try Fixture.mutated(field.model.fileName) { $0[field.key] = field.id }
    let expanded = try field.expandedJSON()
    let asObject = try Fixture.mutated(field.model.fileName) { $0[field.key] = expanded }

    // When both are decoded
    let fromString = try field.model.decode(asString)
    let fromObject = try field.model.decode(asObject)

    // Then both name the same id
    #expect(field.read(fromString) == field.id)
    #expect(field.read(fromObject) == field.id)
}

@Test(arguments: ["42", "true", "[]", #"{"object": "transfer"}"#])
func expandableIDOfNeitherStringNorObjectWithIDFails(json: String) {
    #expect(throws: DecodingError.self) { try StripeJSON.decode(ExpandableID.self, from: Data(json.utf8)) }
}

@Test func expandableIDFromStringAndFromObjectAreEqual() throws {
    let fromString = try StripeJSON.decode(ExpandableID.self, from: Data(#""acct_1""#.utf8))
    let fromObject = try StripeJSON.decode(
        ExpandableID.self, from: Data(#"{"id": "acct_1", "object": "account", "settings": {}}"#.utf8))

    #expect(fromString == ExpandableID("acct_1"))
    #expect(fromObject == fromString)
    #expect(fromObject.description == "acct_1")
}

@Test(arguments: ["42", #"{"object": "account"}"#, #"{"id": 7}"#])
func expandableIDWithoutAStringIDFails(json: String) {
    #expect(throws: DecodingError.self) { try StripeJSON.decode(ExpandableID.self, from: Data(json.utf8)) }
}

@Test(arguments: ExpandableField.all)
func everyExpandableFieldIsAReferenceOfItsKindInTheCatalogue(field: ExpandableField) throws {
    // Given an expandable field of a fixture, and the catalogue entry of its kind
    let kind = try #require(ObjectKind(rawValue: field.model.fileName))

    // Then the catalogue names the member a reference, and the stored JSON folds the expanded object to its id
    #expect(kind.entry.references.contains { $0.member == field.key })
    let expanded = try field.expandedJSON()
    let asObject = try Fixture.mutated(field.model.fileName) { $0[field.key] = expanded }
    let folded = ExpansionFolding.of(kind).fold(String(decoding: asObject, as: UTF8.self))
    #expect(folded.contains(#""\#(field.key)":"\#(field.id)""#))
}
