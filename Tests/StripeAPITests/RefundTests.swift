import Foundation
import ReconCore
import StripeAPI
import Testing

@Test func refundFixtureDecodesWithItsValues() throws {
    let refund = try Fixture.decode(Refund.self, "refund")

    #expect(refund.id == "re_1Pgc72B7WZ01zgkWqPvrRrPE")
    #expect(refund.amount == 100)
    #expect(refund.balanceTransaction == nil)
    #expect(refund.charge == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(refund.created == 1_234_567_890)
    #expect(refund.currency == .usd)
    #expect(refund.failureBalanceTransaction == nil)
    #expect(refund.failureReason == nil)
    #expect(refund.metadata.isEmpty)
    #expect(refund.paymentIntent == nil)
    #expect(refund.reason == nil)
    #expect(refund.sourceTransferReversal == nil)
    #expect(refund.status == .succeeded)
    #expect(refund.transferReversal == nil)
}

@Test func refundThatReversedTheTransferDecodesTheExpandedReversal() throws {
    // Given a refund made with reverse_transfer, its reversal expanded
    let reversal = try Fixture.json("transfer_reversal")
    let data = try Fixture.mutated("refund") { json in
        json["transfer_reversal"] = reversal
        json["reason"] = "requested_by_customer"
        json["balance_transaction"] = "txn_refund"
    }

    let refund = try StripeJSON.decode(Refund.self, from: data)

    #expect(refund.transferReversal?.id == "trr_1Pgc7BB7WZ01zgkWsU61ufNC")
    #expect(try Fixture.embedded(TransferReversal.self, at: "transfer_reversal", in: data).amount == 1100)
    #expect(refund.reason == .requestedByCustomer)
    #expect(refund.balanceTransaction?.id == "txn_refund")
}

@Test func failedRefundDecodesItsFailureFields() throws {
    let data = try Fixture.mutated("refund") { json in
        json["status"] = "failed"
        json["failure_reason"] = "expired_or_canceled_card"
        json["failure_balance_transaction"] = "txn_refund_failure"
    }

    let refund = try StripeJSON.decode(Refund.self, from: data)

    #expect(refund.status == .failed)
    #expect(refund.failureReason == "expired_or_canceled_card")
    #expect(refund.failureBalanceTransaction == ExpandableID("txn_refund_failure"))
}

@Test func refundWithUnknownStatusAndReasonDecodes() throws {
    let data = try Fixture.mutated("refund") { json in
        json["status"] = "something_new"
        json["reason"] = "brand_new_reason"
    }

    let refund = try StripeJSON.decode(Refund.self, from: data)

    #expect(refund.status?.rawValue == "something_new")
    #expect(refund.reason?.rawValue == "brand_new_reason")
}
