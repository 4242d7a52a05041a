import Foundation
import ReconCore
import StripeAPI
import Testing

@Test func transferFixtureDecodesWithItsValues() throws {
    let transfer = try Fixture.decode(Transfer.self, "transfer")

    #expect(transfer.id == "tr_1Pgc7BB7WZ01zgkWVJfE40RX")
    #expect(transfer.amount == 1100)
    #expect(transfer.amountReversed == 0)
    #expect(transfer.balanceTransaction == ExpandableID("txn_1PgaxNB7WZ01zgkWEV3TLf40"))
    #expect(transfer.created == 1_234_567_890)
    #expect(transfer.currency == .usd)
    #expect(transfer.description == nil)
    #expect(transfer.destination?.id == "acct_1PgafTB7WZ01zgkW")
    #expect(transfer.destinationAccountID == "acct_1PgafTB7WZ01zgkW")
    #expect(transfer.destinationPayment == ExpandableID("py_QXhWZR8SdWquhf"))
    #expect(transfer.livemode == false)
    #expect(transfer.metadata.isEmpty)
    #expect(transfer.reversals.data.isEmpty)
    #expect(transfer.reversals.hasMore == false)
    #expect(transfer.reversals.object == "list")
    #expect(transfer.reversals.url == "/v1/transfers/tr_1Pgc7BB7WZ01zgkWVJfE40RX/reversals")
    #expect(transfer.reversed == false)
    #expect(transfer.sourceTransaction == nil)
    #expect(transfer.sourceType == "card")
    #expect(transfer.transferGroup == nil)
}

@Test func transferWithEmbeddedReversalsDecodesThemAndSaysWhenMoreExist() throws {
    // Given a transfer partly reversed, with one reversal embedded and more to page
    let reversal = try Fixture.json("transfer_reversal")
    let data = try Fixture.mutated("transfer") { json in
        json["amount_reversed"] = 1100
        json["reversed"] = true
        json["source_transaction"] = "ch_1PgafuB7WZ01zgkWXYmPNZs8"
        json["reversals"] = [
            "object": "list", "url": "/v1/transfers/tr_1Pgc7BB7WZ01zgkWVJfE40RX/reversals", "has_more": true,
            "data": [reversal],
        ]
    }

    let transfer = try StripeJSON.decode(Transfer.self, from: data)

    #expect(transfer.amountReversed == 1100)
    #expect(transfer.reversed)
    #expect(transfer.sourceTransaction == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(transfer.reversals.hasMore)
    #expect(transfer.reversals.data.map(\.amount) == [1100])
    #expect(transfer.reversals.lastID == "trr_1Pgc7BB7WZ01zgkWsU61ufNC")
}

@Test func transferWithExpandedDestinationAccountDecodesTheSameID() throws {
    let data = try Fixture.mutated("transfer") { json in
        json["destination"] = ["id": "acct_1PgafTB7WZ01zgkW", "object": "account", "type": "express"]
    }

    let transfer = try StripeJSON.decode(Transfer.self, from: data)

    #expect(transfer.destinationAccountID == "acct_1PgafTB7WZ01zgkW")
}

@Test func transferWithoutReversalsListFails() throws {
    // `reversals` is always present on a transfer; without it the amounts reversed cannot be traced.
    let data = try Fixture.mutated("transfer") { $0["reversals"] = nil }

    #expect(throws: DecodingError.self) { try StripeJSON.decode(Transfer.self, from: data) }
}
