import Foundation
import ReconCore
import StripeAPI
import Testing

@Test func paymentIntentFixtureDecodesWithItsValues() throws {
    let paymentIntent = try Fixture.decode(PaymentIntent.self, "payment_intent")

    #expect(paymentIntent.id == "pi_1PgafyB7WZ01zgkWSjxsAJo3")
    #expect(paymentIntent.amount == 1099)
    #expect(paymentIntent.amountReceived == 0)
    #expect(paymentIntent.applicationFeeAmount == nil)
    #expect(paymentIntent.captureMethod == .automatic)
    #expect(paymentIntent.created == 1_234_567_890)
    #expect(paymentIntent.currency == .usd)
    #expect(paymentIntent.latestCharge == nil)
    #expect(paymentIntent.livemode == false)
    #expect(paymentIntent.metadata.isEmpty)
    #expect(paymentIntent.onBehalfOf == nil)
    #expect(paymentIntent.status == .requiresPaymentMethod)
    #expect(paymentIntent.transferGroup == nil)
    // `transfer_data` has no `amount` key at all, and an expanded account as destination.
    let transferData = try #require(paymentIntent.transferData)
    #expect(transferData.amount == nil)
    #expect(transferData.destination.id == "obj_123")
    #expect(paymentIntent.destinationAccountID == "obj_123")
}

@Test func paymentIntentOfAnAmountStyleDestinationChargeDecodes() throws {
    // Given a succeeded PaymentIntent that asked for 8.77 to go to the connected account
    let data = try Fixture.mutated("payment_intent") { json in
        json["status"] = "succeeded"
        json["capture_method"] = "automatic_async"
        json["amount_received"] = 1000
        json["transfer_data"] = ["amount": 877, "destination": "acct_1PgafTB7WZ01zgkW"]
        json["application_fee_amount"] = 123
        json["latest_charge"] = "ch_1PgafuB7WZ01zgkWXYmPNZs8"
        json["on_behalf_of"] = "acct_1PgafTB7WZ01zgkW"
    }

    let paymentIntent = try StripeJSON.decode(PaymentIntent.self, from: data)

    #expect(paymentIntent.status == .succeeded)
    #expect(paymentIntent.captureMethod == .automaticAsync)
    #expect(paymentIntent.amountReceived == 1000)
    #expect(paymentIntent.transferData?.amount == 877)
    #expect(paymentIntent.destinationAccountID == "acct_1PgafTB7WZ01zgkW")
    #expect(paymentIntent.applicationFeeAmount == 123)
    #expect(paymentIntent.latestCharge == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(paymentIntent.onBehalfOf == ExpandableID("acct_1PgafTB7WZ01zgkW"))
}

@Test func paymentIntentWithExpandedLatestChargeDecodesTheCharge() throws {
    let charge = try Fixture.json("charge")
    let data = try Fixture.mutated("payment_intent") { $0["latest_charge"] = charge }

    let paymentIntent = try StripeJSON.decode(PaymentIntent.self, from: data)

    #expect(paymentIntent.latestCharge?.id == "ch_1PgafuB7WZ01zgkWXYmPNZs8")
    #expect(try Fixture.embedded(Charge.self, at: "latest_charge", in: data).amount == 100)
}

@Test func paymentIntentWithUnknownStatusAndCaptureMethodDecodes() throws {
    let data = try Fixture.mutated("payment_intent") { json in
        json["status"] = "something_new"
        json["capture_method"] = "brand_new_method"
    }

    let paymentIntent = try StripeJSON.decode(PaymentIntent.self, from: data)

    #expect(paymentIntent.status == PaymentIntentStatus(rawValue: "something_new"))
    #expect(paymentIntent.captureMethod.rawValue == "brand_new_method")
    #expect(paymentIntent.captureMethod.isKnown == false)
}
