import Foundation
import ReconCore
import StripeAPI
import Testing

@Test func transferReversalFixtureDecodesWithItsValues() throws {
    let reversal = try Fixture.decode(TransferReversal.self, "transfer_reversal")

    #expect(reversal.id == "trr_1Pgc7BB7WZ01zgkWsU61ufNC")
    #expect(reversal.amount == 1100)
    #expect(reversal.balanceTransaction == nil)
    #expect(reversal.created == 1_234_567_890)
    #expect(reversal.currency == .usd)
    #expect(reversal.destinationPaymentRefund == nil)
    #expect(reversal.metadata.isEmpty)
    #expect(reversal.sourceRefund == nil)
    #expect(reversal.transfer == ExpandableID("tr_1Pgc7BB7WZ01zgkWVJfE40RX"))
    #expect(reversal.isLinkedToRefund == false)
}

@Test func transferReversalMadeByARefundIsLinkedToIt() throws {
    let data = try Fixture.mutated("transfer_reversal") { json in
        json["source_refund"] = "re_1Pgc72B7WZ01zgkWqPvrRrPE"
        json["destination_payment_refund"] = "pyr_1Pgc72B7WZ01zgkW"
    }

    let reversal = try StripeJSON.decode(TransferReversal.self, from: data)

    #expect(reversal.sourceRefund == ExpandableID("re_1Pgc72B7WZ01zgkWqPvrRrPE"))
    #expect(reversal.destinationPaymentRefund?.id == "pyr_1Pgc72B7WZ01zgkW")
    #expect(reversal.isLinkedToRefund)
}

@Test func transferReversalRecoveringADisputeKeepsItsMetadataTag() throws {
    let data = try Fixture.mutated("transfer_reversal") {
        $0["metadata"] = ["dispute_id": "dp_1Pgc71B7WZ01zgkWMevJiAUx"]
    }

    let reversal = try StripeJSON.decode(TransferReversal.self, from: data)

    #expect(reversal.metadata["dispute_id"] == "dp_1Pgc71B7WZ01zgkWMevJiAUx")
    #expect(reversal.isLinkedToRefund == false)
}
