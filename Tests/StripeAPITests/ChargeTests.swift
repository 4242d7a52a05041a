import Foundation
import ReconCore
import StripeAPI
import Testing

@Test func chargeFixtureDecodesWithItsValues() throws {
    let charge = try Fixture.decode(Charge.self, "charge")

    #expect(charge.id == "ch_1PgafuB7WZ01zgkWXYmPNZs8")
    #expect(charge.amount == 100)
    #expect(charge.amountCaptured == 0)
    #expect(charge.amountRefunded == 0)
    #expect(charge.currency == .usd)
    #expect(charge.created == 1_234_567_890)
    #expect(charge.status == .succeeded)
    #expect(charge.captured == false)
    #expect(charge.paid == true)
    #expect(charge.refunded == false)
    #expect(charge.disputed == false)
    #expect(charge.livemode == false)
    #expect(charge.description == "My First Test Charge (created for API docs)")
    #expect(charge.metadata.isEmpty)
    #expect(charge.applicationFee == nil)
    #expect(charge.applicationFeeAmount == nil)
    #expect(charge.balanceTransaction == ExpandableID("txn_1PgaxNB7WZ01zgkWEV3TLf40"))
    #expect(charge.failureBalanceTransaction == nil)
    #expect(charge.failureCode == nil)
    #expect(charge.failureMessage == nil)
    #expect(charge.onBehalfOf == nil)
    #expect(charge.paymentIntent == nil)
    #expect(charge.sourceTransfer == nil)
    #expect(charge.transferGroup == nil)
    // `transfer` is absent from the file altogether.
    #expect(charge.transfer == nil)
    let transferData = try #require(charge.transferData)
    #expect(transferData.amount == nil)
    #expect(transferData.destination.id == "obj_123")
    #expect(charge.destinationAccountID == "obj_123")
    let refunds = try #require(charge.refunds)
    #expect(refunds.data.isEmpty)
    #expect(refunds.hasMore == false)
    #expect(refunds.url == "/v1/charges/ch_1PgafuB7WZ01zgkWXYmPNZs8/refunds")
    // Succeeded but not captured: nothing to compute figures for (ChargeFacts.isSucceededAndCaptured reads
    // `amount_captured`, as multicapture keeps `captured` false until the last capture).
    #expect(charge.captured == false)
    #expect(charge.amountCaptured == 0)
}

@Test func chargeWithTransferAmountAndStringDestinationDecodes() throws {
    // Given a `transfer_data[amount]` destination charge, captured, with its transfer
    let data = try Fixture.mutated("charge") { json in
        json["amount_captured"] = 1000
        json["amount"] = 1000
        json["captured"] = true
        json["transfer_data"] = ["amount": 877, "destination": "acct_1PgafTB7WZ01zgkW"]
        json["transfer"] = "tr_1Pgc7BB7WZ01zgkWVJfE40RX"
        json["transfer_group"] = "group_pi_1PgafyB7WZ01zgkWSjxsAJo3"
    }

    // When it is decoded
    let charge = try StripeJSON.decode(Charge.self, from: data)

    // Then the intended split and the links are there
    #expect(charge.transferData?.amount == 877)
    #expect(charge.destinationAccountID == "acct_1PgafTB7WZ01zgkW")
    #expect(charge.transfer == ExpandableID("tr_1Pgc7BB7WZ01zgkWVJfE40RX"))
    #expect(charge.transferGroup == "group_pi_1PgafyB7WZ01zgkWSjxsAJo3")
    #expect(charge.status == .succeeded && charge.amountCaptured > 0)
}

@Test func chargeWithExpandedBalanceTransactionDecodesTheTransaction() throws {
    // Given a charge requested with expand[]=balance_transaction
    let transaction = try Fixture.json("balance_transaction")
    let data = try Fixture.mutated("charge") { $0["balance_transaction"] = transaction }

    // When it is decoded
    let charge = try StripeJSON.decode(Charge.self, from: data)

    // Then the id is the same as unexpanded, and the transaction's figures are readable
    let balanceTransaction = try #require(charge.balanceTransaction)
    #expect(balanceTransaction.id == "txn_1PgaxNB7WZ01zgkWEV3TLf40")
    let expanded = try Fixture.embedded(BalanceTransaction.self, at: "balance_transaction", in: data)
    #expect(expanded.amount == 100)
    #expect(expanded.fee == 0)
    #expect(expanded.net == 100)
    #expect(expanded.type == .charge)
}

@Test func chargeWithExpandedTransferAndPaymentIntentDecodesBoth() throws {
    // Given a charge with its transfer and PaymentIntent expanded
    let transfer = try Fixture.json("transfer")
    let paymentIntent = try Fixture.json("payment_intent")
    let data = try Fixture.mutated("charge") { json in
        json["transfer"] = transfer
        json["payment_intent"] = paymentIntent
    }

    // When it is decoded
    let charge = try StripeJSON.decode(Charge.self, from: data)

    // Then both are there, in full
    #expect(charge.transfer?.id == "tr_1Pgc7BB7WZ01zgkWVJfE40RX")
    #expect(try Fixture.embedded(Transfer.self, at: "transfer", in: data).amount == 1100)
    #expect(charge.paymentIntent?.id == "pi_1PgafyB7WZ01zgkWSjxsAJo3")
    #expect(try Fixture.embedded(PaymentIntent.self, at: "payment_intent", in: data).destinationAccountID == "obj_123")
}

@Test func chargeWithSkippedTransferHasNoTransferData() throws {
    // Given a charge whose transfer Stripe skipped: `transfer_data` is null
    let data = try Fixture.mutated("charge") { $0["transfer_data"] = NSNull() }

    let charge = try StripeJSON.decode(Charge.self, from: data)

    #expect(charge.transferData == nil)
    #expect(charge.destinationAccountID == nil)
}

@Test func chargeWithFailedDelayedPaymentKeepsFailureFields() throws {
    // Given a delayed payment that failed
    let data = try Fixture.mutated("charge") { json in
        json["status"] = "failed"
        json["failure_code"] = "insufficient_funds"
        json["failure_message"] = "The bank account has insufficient funds."
        json["failure_balance_transaction"] = "txn_failure"
    }

    let charge = try StripeJSON.decode(Charge.self, from: data)

    #expect(charge.status == .failed)
    #expect(charge.failureCode == "insufficient_funds")
    #expect(charge.failureMessage == "The bank account has insufficient funds.")
    #expect(charge.failureBalanceTransaction?.id == "txn_failure")
}

@Test func chargeWithUnknownStatusDecodesToTheOpenValue() throws {
    let data = try Fixture.mutated("charge") { $0["status"] = "something_new" }

    let charge = try StripeJSON.decode(Charge.self, from: data)

    #expect(charge.status.rawValue == "something_new")
    #expect(charge.status.isKnown == false)
    #expect(charge.status != .succeeded)
}

@Test func chargeWithMetadataKeepsIt() throws {
    let data = try Fixture.mutated("charge") { $0["metadata"] = ["order_id": "6735", "note": ""] }

    let charge = try StripeJSON.decode(Charge.self, from: data)

    #expect(charge.metadata == ["order_id": "6735", "note": ""])
}

@Test func chargeDecodingFailsForAnotherObjectType() throws {
    // Given a charge body whose `object` says it is something else (a caller decoding the wrong endpoint)
    let data = try Fixture.mutated("charge") { $0["object"] = "transfer" }

    #expect(throws: DecodingError.self) { try StripeJSON.decode(Charge.self, from: data) }
}
