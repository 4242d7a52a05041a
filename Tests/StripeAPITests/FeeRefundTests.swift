import Foundation
import ReconCore
import StripeAPI
import Testing

@Test func feeRefundFixtureDecodesWithItsValues() throws {
    let feeRefund = try Fixture.decode(FeeRefund.self, "fee_refund")

    #expect(feeRefund.id == "fr_1Pgc70B7WZ01zgkWSr1ANtFu")
    #expect(feeRefund.amount == 100)
    #expect(feeRefund.balanceTransaction == nil)
    #expect(feeRefund.created == 1_234_567_890)
    #expect(feeRefund.currency == .usd)
    #expect(feeRefund.fee == ExpandableID("fee_1Pgc6zB7WZ01zgkWOMh2at1m"))
    #expect(feeRefund.metadata.isEmpty)
}

@Test func feeRefundWithExpandedFeeDecodesTheFee() throws {
    let fee = try Fixture.json("application_fee")
    let data = try Fixture.mutated("fee_refund") { $0["fee"] = fee }

    let feeRefund = try StripeJSON.decode(FeeRefund.self, from: data)

    #expect(feeRefund.fee.id == "fee_1Pgc6zB7WZ01zgkWOMh2at1m")
    #expect(try Fixture.embedded(ApplicationFee.self, at: "fee", in: data).account.id == "acct_1PgafTB7WZ01zgkW")
}
