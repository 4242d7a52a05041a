import Foundation
import ReconCore
import StripeAPI
import Testing

@Test func applicationFeeFixtureDecodesWithItsValues() throws {
    let fee = try Fixture.decode(ApplicationFee.self, "application_fee")

    #expect(fee.id == "fee_1Pgc6zB7WZ01zgkWOMh2at1m")
    #expect(fee.account.id == "acct_1PgafTB7WZ01zgkW")
    #expect(fee.amount == 100)
    #expect(fee.amountRefunded == 0)
    #expect(fee.application?.id == "ca_QXhWOVlWX7KFerjnWFSGuGR21sZjCeji")
    #expect(fee.balanceTransaction == ExpandableID("txn_1PgaxNB7WZ01zgkWEV3TLf40"))
    #expect(fee.charge == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(fee.created == 1_234_567_890)
    #expect(fee.currency == .usd)
    #expect(fee.feeSource?.type == .charge)
    #expect(fee.feeSource?.charge == "ch_1PgafuB7WZ01zgkWXYmPNZs8")
    #expect(fee.feeSource?.payout == nil)
    #expect(fee.livemode == false)
    #expect(fee.originatingTransaction == nil)
    #expect(fee.refunded == false)
    #expect(fee.refunds.data.isEmpty)
    #expect(fee.refunds.hasMore == false)
    #expect(fee.refunds.url == "/v1/application_fees/fee_1Pgc6zB7WZ01zgkWOMh2at1m/refunds")
}

@Test func applicationFeeOfADestinationChargeDecodesItsLinksAndRefunds() throws {
    // Given a fee on a destination charge, with an embedded refund and more refunds to page
    let feeRefund = try Fixture.json("fee_refund")
    let data = try Fixture.mutated("application_fee") { json in
        json["charge"] = "py_QXhWZR8SdWquhf"
        json["originating_transaction"] = "ch_1PgafuB7WZ01zgkWXYmPNZs8"
        json["amount_refunded"] = 100
        json["refunded"] = true
        json["refunds"] = [
            "object": "list", "url": "/v1/application_fees/fee_1Pgc6zB7WZ01zgkWOMh2at1m/refunds",
            "has_more": true, "data": [feeRefund],
        ]
    }

    let fee = try StripeJSON.decode(ApplicationFee.self, from: data)

    #expect(fee.charge.id == "py_QXhWZR8SdWquhf")
    #expect(fee.originatingTransaction == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(fee.amountRefunded == 100)
    #expect(fee.refunded)
    #expect(fee.refunds.hasMore)
    #expect(fee.refunds.data.map(\.id) == ["fr_1Pgc70B7WZ01zgkWSr1ANtFu"])
    #expect(fee.refunds.lastID == "fr_1Pgc70B7WZ01zgkWSr1ANtFu")
}

@Test func applicationFeeWithExpandedAccountAndUnknownFeeSourceTypeDecodes() throws {
    let data = try Fixture.mutated("application_fee") { json in
        json["account"] = ["id": "acct_1PgafTB7WZ01zgkW", "object": "account", "country": "US"]
        json["fee_source"] = ["type": "brand_new_source"]
    }

    let fee = try StripeJSON.decode(ApplicationFee.self, from: data)

    #expect(fee.account.id == "acct_1PgafTB7WZ01zgkW")
    #expect(fee.feeSource?.type.rawValue == "brand_new_source")
    #expect(fee.feeSource?.charge == nil)
}
