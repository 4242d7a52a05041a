import Foundation
import History
import ReconCore
import StripeAPI
import Testing

@testable import Extract

/// The absorber stores every object embedded in another under its own id, as the catalogue names the members.
@Suite("Absorbing embedded objects")
struct AbsorberTests {
    /// A fixture of StripeAPITests (Stripe's example objects), as a JSON dictionary.
    static func fixture(_ name: String) throws -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StripeAPITests/Fixtures/\(name).json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    static func text(_ json: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]), as: UTF8.self)
    }

    static func absorb<Object: CatalogueObject>(_ type: Object.Type, _ json: [String: Any]) throws -> ObjectLists {
        let text = try text(json)
        var batch = ObjectLists()
        let tape = try JSONTapeDecoder.tape(Data(text.utf8))
        let object = try StripeJSON.decoder().decode(type, from: tape, at: JSONTape.root)
        try Absorber.absorb(object, at: JSONTape.root, of: tape, into: &batch)
        return batch
    }

    @Test func aChargeWithItsExpansionsStoresEachEmbeddedObjectUnderItsOwnID() throws {
        // Given a charge as the range's list sends it: PaymentIntent, transfer with its balance transaction, and
        // refunds expanded
        var transaction = try Self.fixture("balance_transaction")
        transaction["id"] = "txn_transfer"
        var transfer = try Self.fixture("transfer")
        transfer["balance_transaction"] = transaction
        let refund = try Self.fixture("refund")
        var charge = try Self.fixture("charge")
        charge["payment_intent"] = try Self.fixture("payment_intent")
        charge["transfer"] = transfer
        charge["refunds"] = ["object": "list", "data": [refund], "has_more": false, "url": "/v1/refunds"]

        // When it is absorbed
        let batch = try Self.absorb(Charge.self, charge)

        // Then each object is stored once, under its own id
        #expect(batch[stored: ChargeFacts.self].map(\.facts.id) == ["ch_1PgafuB7WZ01zgkWXYmPNZs8"])
        #expect(batch[stored: PaymentIntentFacts.self].map(\.facts.id) == ["pi_1PgafyB7WZ01zgkWSjxsAJo3"])
        #expect(batch[stored: TransferFacts.self].map(\.facts.id) == ["tr_1Pgc7BB7WZ01zgkWVJfE40RX"])
        #expect(batch[stored: BalanceTransactionFacts.self].map(\.facts.id) == ["txn_transfer"])
        #expect(batch[stored: RefundFacts.self].map(\.facts.id) == ["re_1Pgc72B7WZ01zgkWqPvrRrPE"])
        // And the stored JSON names the expanded objects by id, without the refunds only an expansion adds
        let stored = try #require(batch[stored: ChargeFacts.self].first?.rawJSON)
        #expect(stored.contains(#""payment_intent":"pi_1PgafyB7WZ01zgkWSjxsAJo3""#))
        #expect(stored.contains(#""transfer":"tr_1Pgc7BB7WZ01zgkWVJfE40RX""#))
        #expect(!stored.contains(#""refunds""#))
        #expect(
            batch[stored: TransferFacts.self].first?.rawJSON.contains(#""balance_transaction":"txn_transfer""#) == true)
    }

    @Test func aDisputeStoresTheBalanceTransactionsStripeEmbedsInIt() throws {
        // Given a dispute, whose balance transactions Stripe always sends whole: the withdrawal and the reinstatement
        var withdrawal = try Self.fixture("balance_transaction")
        withdrawal["id"] = "txn_withdrawal"
        var reinstatement = withdrawal
        reinstatement["id"] = "txn_reinstatement"
        var dispute = try Self.fixture("dispute")
        dispute["balance_transactions"] = [withdrawal, reinstatement]

        // When it is absorbed
        let batch = try Self.absorb(Dispute.self, dispute)

        // Then each of them is stored as a balance transaction, and the dispute keeps them in its JSON
        #expect(batch[stored: BalanceTransactionFacts.self].map(\.facts.id) == ["txn_withdrawal", "txn_reinstatement"])
        #expect(
            batch[stored: DisputeFacts.self].first?.facts.balanceTransactionIDs == [
                "txn_withdrawal", "txn_reinstatement",
            ])
    }

    @Test func anEmbeddedObjectMissingARequiredFieldIsRejectedNamingWhereItWas() throws {
        // Given a charge whose expanded PaymentIntent has no amount
        var intent = try Self.fixture("payment_intent")
        intent["amount"] = nil
        var charge = try Self.fixture("charge")
        charge["payment_intent"] = intent

        // When it is absorbed, then it is rejected, naming the member, the charge and what is missing
        let error = try #require(throws: EmbeddedObjectError.self) { try Self.absorb(Charge.self, charge) }
        #expect(error.member == "payment_intent")
        #expect(error.parentID == "ch_1PgafuB7WZ01zgkWXYmPNZs8")
        #expect(error.description.contains("missing 'amount'"))
    }

    @Test func everyRangeExpansionStartsAtAMemberTheCatalogueNames() {
        // The range's lists expand `data.<member>…`: each first member is a stored reference or a list of the kind
        for kind in ObjectKind.allCases {
            let entry = kind.entry
            let members = Set(entry.storedReferences.map(\.member) + entry.lists.map(\.member))
            for expansion in entry.rangeExpansions {
                let parts = expansion.split(separator: ".").map(String.init)
                #expect(parts.first == "data" && parts.count >= 2, "\(kind): \(expansion)")
                #expect(members.contains(parts.count >= 2 ? parts[1] : ""), "\(kind): \(expansion)")
            }
        }
    }

    @Test func everyKindHasOneWireModelAndTheRangeListsAreTheCataloguesListedKinds() {
        for kind in ObjectKind.allCases { #expect(kind.wireModel.kind == kind) }
        #expect(Set(catalogueObjects.map { $0.kind }).count == catalogueObjects.count)
        #expect(
            ListKind.rangeLists.map(\.rawValue) == [
                "charges", "application_fees", "transfers", "balance_transactions", "disputes", "refunds", "payouts",
            ])
        #expect(ListKind.payoutTransactions.rawValue == "payout_transactions")
    }
}
