import Foundation
import ReconCore
import StripeAPI
import Testing

@Test func disputeFixtureDecodesWithItsValues() throws {
    let dispute = try Fixture.decode(Dispute.self, "dispute")

    #expect(dispute.id == "dp_1Pgc71B7WZ01zgkWMevJiAUx")
    #expect(dispute.amount == 1000)
    #expect(dispute.balanceTransactions.isEmpty)
    #expect(dispute.charge == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(dispute.created == 1_234_567_890)
    #expect(dispute.currency == .usd)
    #expect(dispute.isChargeRefundable)
    #expect(dispute.livemode == false)
    #expect(dispute.metadata.isEmpty)
    #expect(dispute.paymentIntent == nil)
    #expect(dispute.reason == .general)
    #expect(dispute.status == .warningNeedsResponse)
    #expect(dispute.status.fundsWithdrawn == false)
    #expect(dispute.status.isInquiry)
}

@Test func chargebackWithItsWithdrawalDecodesTheBalanceTransactions() throws {
    // Given a chargeback whose funds were withdrawn
    let withdrawal = try Fixture.disputeWithdrawal()
    let data = try Fixture.mutated("dispute") { json in
        json["status"] = "needs_response"
        json["reason"] = "fraudulent"
        json["balance_transactions"] = [withdrawal]
    }

    // When it is decoded
    let dispute = try StripeJSON.decode(Dispute.self, from: data)

    // Then the withdrawal is there in full
    #expect(dispute.status == .needsResponse)
    #expect(dispute.status.fundsWithdrawn)
    #expect(dispute.reason == .fraudulent)
    #expect(dispute.balanceTransactions.map(\.id) == ["txn_dispute_withdrawal"])
    #expect(dispute.balanceTransactions.first?.net == -2500)
    #expect(dispute.balanceTransactions.first?.reportingCategory == .dispute)
}

@Test(arguments: [
    ("warning_needs_response", false), ("warning_under_review", false), ("warning_closed", false),
    ("needs_response", true), ("under_review", true), ("lost", true), ("won", false), ("prevented", false),
    ("something_new", false),
])
func disputeStatusSaysWhetherFundsWereWithdrawn(status: String, withdrawn: Bool) {
    #expect(DisputeStatus(rawValue: status).fundsWithdrawn == withdrawn)
}

@Test(arguments: [
    ("warning_needs_response", true), ("warning_under_review", true), ("warning_closed", true),
    ("needs_response", false), ("won", false), ("something_new", false),
])
func disputeStatusSaysWhetherItIsAnInquiry(status: String, inquiry: Bool) {
    #expect(DisputeStatus(rawValue: status).isInquiry == inquiry)
}

@Test func disputeWithUnknownStatusAndReasonDecodes() throws {
    let data = try Fixture.mutated("dispute") { json in
        json["status"] = "something_new"
        json["reason"] = "brand_new_reason"
    }

    let dispute = try StripeJSON.decode(Dispute.self, from: data)

    #expect(dispute.status.rawValue == "something_new")
    #expect(dispute.status.fundsWithdrawn == false)
    #expect(dispute.reason.rawValue == "brand_new_reason")
}

@Test func disputeWithExpandedChargeDecodesTheCharge() throws {
    let charge = try Fixture.json("charge")
    let data = try Fixture.mutated("dispute") { $0["charge"] = charge }

    let dispute = try StripeJSON.decode(Dispute.self, from: data)

    #expect(dispute.charge.id == "ch_1PgafuB7WZ01zgkWXYmPNZs8")
    #expect(try Fixture.embedded(Charge.self, at: "charge", in: data).destinationAccountID == "obj_123")
}
