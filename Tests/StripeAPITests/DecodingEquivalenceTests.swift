import Foundation
import ReconCore
import StripeAPI
import Testing

// Every model, decoded from a variant of its fixture that has a value Stripe may add later in an open enum, a
// `null` metadata, a member left out, an expanded reference and a field nobody knows, checked property by
// property. These values were pinned against the hand-written `init(from:)`s before the models moved to
// synthesized `Decodable` (issue 27), so they prove the synthesized decoding reads the same values.

/// A fixture's variant with the members that make decoding work: an unknown field, `metadata: null` (when
/// `nullMetadata`) and `change`.
private func variant(
    _ name: String, nullMetadata: Bool = true, _ change: (inout [String: Any]) throws -> Void
) throws -> Data {
    try Fixture.mutated(name) { json in
        json["a_field_from_the_future"] = ["nested": ["deeper": [1, 2]], "flag": true] as [String: Any]
        if nullMetadata { json["metadata"] = NSNull() }
        try change(&json)
    }
}

/// An expanded reference with fields the id-only model does not read.
private func expanded(_ id: String, _ object: String) -> [String: Any] {
    ["id": id, "object": object, "livemode": false, "metadata": ["k": "v"], "nested": ["deeper": 1]]
}

@Test func chargeDecodesTheSameValuesFieldByField() throws {
    let refund = try Fixture.json("refund")
    let data = try variant("charge") { json in
        json["status"] = "requires_time_travel"
        json["description"] = nil
        json["failure_code"] = nil
        json["payment_intent"] = expanded("pi_1PgafyB7WZ01zgkWSjxsAJo3", "payment_intent")
        json["on_behalf_of"] = "acct_1PgafTB7WZ01zgkW"
        json["transfer"] = expanded("tr_1Pgc7BB7WZ01zgkWVJfE40RX", "transfer")
        json["application_fee_amount"] = 123
        json["refunds"] =
            [
                "object": "list", "url": "/v1/charges/ch_1PgafuB7WZ01zgkWXYmPNZs8/refunds", "has_more": true,
                "data": [refund],
            ] as [String: Any]
    }

    let charge = try StripeJSON.decode(Charge.self, from: data)

    #expect(charge.id == "ch_1PgafuB7WZ01zgkWXYmPNZs8")
    #expect(charge.amount == 100)
    #expect(charge.amountCaptured == 0)
    #expect(charge.amountRefunded == 0)
    #expect(charge.applicationFee == nil)
    #expect(charge.applicationFeeAmount == 123)
    #expect(charge.balanceTransaction == ExpandableID("txn_1PgaxNB7WZ01zgkWEV3TLf40"))
    #expect(charge.captured == false)
    #expect(charge.created == 1_234_567_890)
    #expect(charge.currency == .usd)
    #expect(charge.description == nil)
    #expect(charge.disputed == false)
    #expect(charge.failureBalanceTransaction == nil)
    #expect(charge.failureCode == nil)
    #expect(charge.failureMessage == nil)
    #expect(charge.livemode == false)
    #expect(charge.metadata == [:])
    #expect(charge.onBehalfOf == ExpandableID("acct_1PgafTB7WZ01zgkW"))
    #expect(charge.paid)
    #expect(charge.paymentIntent == ExpandableID("pi_1PgafyB7WZ01zgkWSjxsAJo3"))
    #expect(charge.refunded == false)
    #expect(charge.refunds?.object == "list")
    #expect(charge.refunds?.url == "/v1/charges/ch_1PgafuB7WZ01zgkWXYmPNZs8/refunds")
    #expect(charge.refunds?.hasMore == true)
    #expect(charge.refunds?.data == [try Fixture.decode(Refund.self, "refund")])
    #expect(charge.sourceTransfer == nil)
    #expect(charge.status.rawValue == "requires_time_travel")
    #expect(!charge.status.isKnown)
    #expect(charge.transfer == ExpandableID("tr_1Pgc7BB7WZ01zgkWVJfE40RX"))
    #expect(charge.transferData?.amount == nil)
    #expect(charge.transferData?.destination == ExpandableID("obj_123"))
    #expect(charge.transferGroup == nil)
}

@Test func paymentIntentDecodesTheSameValuesFieldByField() throws {
    let data = try variant("payment_intent") { json in
        json["capture_method"] = "automatic_eventually"
        json["status"] = "requires_patience"
        json["amount_received"] = nil
        json["application_fee_amount"] = 99
        json["latest_charge"] = expanded("ch_1PgafuB7WZ01zgkWXYmPNZs8", "charge")
        json["on_behalf_of"] = expanded("acct_1PgafTB7WZ01zgkW", "account")
        json["transfer_data"] = ["amount": 1000, "destination": "acct_1PgafTB7WZ01zgkW"] as [String: Any]
        json["transfer_group"] = "group_pi_1PgafyB7WZ01zgkWSjxsAJo3"
    }

    let intent = try StripeJSON.decode(PaymentIntent.self, from: data)

    #expect(intent.id == "pi_1PgafyB7WZ01zgkWSjxsAJo3")
    #expect(intent.amount == 1099)
    #expect(intent.amountReceived == nil)
    #expect(intent.applicationFeeAmount == 99)
    #expect(intent.captureMethod.rawValue == "automatic_eventually")
    #expect(!intent.captureMethod.isKnown)
    #expect(intent.created == 1_234_567_890)
    #expect(intent.currency == .usd)
    #expect(intent.latestCharge == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(intent.livemode == false)
    #expect(intent.metadata == [:])
    #expect(intent.onBehalfOf == ExpandableID("acct_1PgafTB7WZ01zgkW"))
    #expect(intent.status.rawValue == "requires_patience")
    #expect(!intent.status.isKnown)
    #expect(intent.transferData?.amount == 1000)
    #expect(intent.transferData?.destinationAccountID == "acct_1PgafTB7WZ01zgkW")
    #expect(intent.transferGroup == "group_pi_1PgafyB7WZ01zgkWSjxsAJo3")
}

@Test func applicationFeeDecodesTheSameValuesFieldByField() throws {
    // An application fee has no metadata.
    let feeRefund = try Fixture.json("fee_refund")
    let data = try variant("application_fee", nullMetadata: false) { json in
        json["account"] = expanded("acct_1PgafTB7WZ01zgkW", "account")
        json["application"] = nil
        json["fee_source"] = ["type": "subscription_of_the_future", "charge": NSNull()] as [String: Any]
        json["originating_transaction"] = expanded("ch_1PgafuB7WZ01zgkWXYmPNZs8", "charge")
        json["amount_refunded"] = 100
        json["refunded"] = true
        json["refunds"] =
            [
                "object": "list", "url": "/v1/application_fees/fee_1Pgc6zB7WZ01zgkWOMh2at1m/refunds",
                "has_more": false, "data": [feeRefund],
            ] as [String: Any]
    }

    let fee = try StripeJSON.decode(ApplicationFee.self, from: data)

    #expect(fee.id == "fee_1Pgc6zB7WZ01zgkWOMh2at1m")
    #expect(fee.account == ExpandableID("acct_1PgafTB7WZ01zgkW"))
    #expect(fee.amount == 100)
    #expect(fee.amountRefunded == 100)
    #expect(fee.application == nil)
    #expect(fee.balanceTransaction == ExpandableID("txn_1PgaxNB7WZ01zgkWEV3TLf40"))
    #expect(fee.charge == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(fee.created == 1_234_567_890)
    #expect(fee.currency == .usd)
    #expect(fee.feeSource?.type.rawValue == "subscription_of_the_future")
    #expect(fee.feeSource?.type.isKnown == false)
    #expect(fee.feeSource?.charge == nil)
    #expect(fee.feeSource?.payout == nil)
    #expect(fee.livemode == false)
    #expect(fee.originatingTransaction == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(fee.refunded)
    #expect(fee.refunds.object == "list")
    #expect(fee.refunds.url == "/v1/application_fees/fee_1Pgc6zB7WZ01zgkWOMh2at1m/refunds")
    #expect(fee.refunds.hasMore == false)
    #expect(fee.refunds.data == [try Fixture.decode(FeeRefund.self, "fee_refund")])
}

@Test func feeRefundDecodesTheSameValuesFieldByField() throws {
    // A fee refund has no open enum.
    let data = try variant("fee_refund") { json in
        json["balance_transaction"] = nil
        json["fee"] = expanded("fee_1Pgc6zB7WZ01zgkWOMh2at1m", "application_fee")
    }

    let feeRefund = try StripeJSON.decode(FeeRefund.self, from: data)

    #expect(feeRefund.id == "fr_1Pgc70B7WZ01zgkWSr1ANtFu")
    #expect(feeRefund.amount == 100)
    #expect(feeRefund.balanceTransaction == nil)
    #expect(feeRefund.created == 1_234_567_890)
    #expect(feeRefund.currency == .usd)
    #expect(feeRefund.fee == ExpandableID("fee_1Pgc6zB7WZ01zgkWOMh2at1m"))
    #expect(feeRefund.metadata == [:])
}

@Test func transferDecodesTheSameValuesFieldByField() throws {
    // A transfer has no open enum (`source_type` is a plain string, so a new one is kept as it is).
    var reversal = try Fixture.json("transfer_reversal")
    reversal["metadata"] = ["dispute_id": "dp_1Pgc71B7WZ01zgkWMevJiAUx"]
    let data = try variant("transfer") { json in
        json["description"] = nil
        json["destination"] = expanded("acct_1PgafTB7WZ01zgkW", "account")
        json["source_transaction"] = expanded("ch_1PgafuB7WZ01zgkWXYmPNZs8", "charge")
        json["source_type"] = "a_source_from_the_future"
        json["amount_reversed"] = 1100
        json["reversed"] = true
        json["reversals"] =
            [
                "object": "list", "url": "/v1/transfers/tr_1Pgc7BB7WZ01zgkWVJfE40RX/reversals", "has_more": true,
                "data": [reversal],
            ] as [String: Any]
    }

    let transfer = try StripeJSON.decode(Transfer.self, from: data)

    #expect(transfer.id == "tr_1Pgc7BB7WZ01zgkWVJfE40RX")
    #expect(transfer.amount == 1100)
    #expect(transfer.amountReversed == 1100)
    #expect(transfer.balanceTransaction == ExpandableID("txn_1PgaxNB7WZ01zgkWEV3TLf40"))
    #expect(transfer.created == 1_234_567_890)
    #expect(transfer.currency == .usd)
    #expect(transfer.description == nil)
    #expect(transfer.destination == ExpandableID("acct_1PgafTB7WZ01zgkW"))
    #expect(transfer.destinationPayment == ExpandableID("py_QXhWZR8SdWquhf"))
    #expect(transfer.livemode == false)
    #expect(transfer.metadata == [:])
    #expect(transfer.reversals.object == "list")
    #expect(transfer.reversals.url == "/v1/transfers/tr_1Pgc7BB7WZ01zgkWVJfE40RX/reversals")
    #expect(transfer.reversals.hasMore)
    #expect(transfer.reversals.data.map(\.id) == ["trr_1Pgc7BB7WZ01zgkWsU61ufNC"])
    #expect(transfer.reversals.data.first?.metadata == ["dispute_id": "dp_1Pgc71B7WZ01zgkWMevJiAUx"])
    #expect(transfer.reversed)
    #expect(transfer.sourceTransaction == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(transfer.sourceType == "a_source_from_the_future")
    #expect(transfer.transferGroup == nil)
}

@Test func transferReversalDecodesTheSameValuesFieldByField() throws {
    // A transfer reversal has no open enum.
    let data = try variant("transfer_reversal") { json in
        json["destination_payment_refund"] = nil
        json["balance_transaction"] = "txn_1Pgc7BB7WZ01zgkW"
        json["source_refund"] = "re_1Pgc72B7WZ01zgkWqPvrRrPE"
        json["transfer"] = expanded("tr_1Pgc7BB7WZ01zgkWVJfE40RX", "transfer")
    }

    let reversal = try StripeJSON.decode(TransferReversal.self, from: data)

    #expect(reversal.id == "trr_1Pgc7BB7WZ01zgkWsU61ufNC")
    #expect(reversal.amount == 1100)
    #expect(reversal.balanceTransaction == ExpandableID("txn_1Pgc7BB7WZ01zgkW"))
    #expect(reversal.created == 1_234_567_890)
    #expect(reversal.currency == .usd)
    #expect(reversal.destinationPaymentRefund == nil)
    #expect(reversal.metadata == [:])
    #expect(reversal.sourceRefund == ExpandableID("re_1Pgc72B7WZ01zgkWqPvrRrPE"))
    #expect(reversal.transfer == ExpandableID("tr_1Pgc7BB7WZ01zgkWVJfE40RX"))
    #expect(reversal.isLinkedToRefund)
}

@Test func balanceTransactionDecodesTheSameValuesFieldByField() throws {
    // A balance transaction has no metadata; its source, expanded, is an object of a type not modelled here.
    let data = try variant("balance_transaction", nullMetadata: false) { json in
        json["type"] = "a_type_from_the_future"
        json["reporting_category"] = "a_category_from_the_future"
        json["status"] = "a_status_from_the_future"
        json["balance_type"] = "a_balance_from_the_future"
        json["description"] = nil
        json["exchange_rate"] = 1.0853
        json["fee"] = 30
        json["net"] = 70
        json["fee_details"] = [
            [
                "amount": 30, "application": NSNull(), "currency": "usd", "description": "A new fee",
                "type": "a_fee_from_the_future",
            ] as [String: Any]
        ]
        json["source"] = expanded("po_1PgaxNB7WZ01zgkW", "payout")
    }

    let transaction = try StripeJSON.decode(BalanceTransaction.self, from: data)

    #expect(transaction.id == "txn_1PgaxNB7WZ01zgkWEV3TLf40")
    #expect(transaction.amount == 100)
    #expect(transaction.availableOn == 1_234_567_890)
    #expect(transaction.balanceType?.rawValue == "a_balance_from_the_future")
    #expect(transaction.balanceType?.isKnown == false)
    #expect(transaction.created == 1_234_567_890)
    #expect(transaction.currency == .usd)
    #expect(transaction.description == nil)
    #expect(transaction.exchangeRate == 1.0853)
    #expect(transaction.fee == 30)
    #expect(transaction.feeDetails.count == 1)
    #expect(transaction.feeDetails.first?.amount == 30)
    #expect(transaction.feeDetails.first?.application == nil)
    #expect(transaction.feeDetails.first?.currency == .usd)
    #expect(transaction.feeDetails.first?.description == "A new fee")
    #expect(transaction.feeDetails.first?.type.rawValue == "a_fee_from_the_future")
    #expect(transaction.feeDetails.first?.type.isKnown == false)
    #expect(transaction.net == 70)
    #expect(transaction.reportingCategory.rawValue == "a_category_from_the_future")
    #expect(!transaction.reportingCategory.isKnown)
    #expect(transaction.source == BalanceTransactionSource(id: "po_1PgaxNB7WZ01zgkW", objectType: "payout"))
    #expect(transaction.status.rawValue == "a_status_from_the_future")
    #expect(!transaction.status.isKnown)
    #expect(transaction.type.rawValue == "a_type_from_the_future")
    #expect(!transaction.type.isKnown)
}

@Test func disputeDecodesTheSameValuesFieldByField() throws {
    let withdrawal = try Fixture.disputeWithdrawal()
    let data = try variant("dispute") { json in
        json["reason"] = "a_reason_from_the_future"
        json["status"] = "a_status_from_the_future"
        json["payment_intent"] = nil
        json["charge"] = expanded("ch_1PgafuB7WZ01zgkWXYmPNZs8", "charge")
        json["is_charge_refundable"] = false
        json["balance_transactions"] = [withdrawal]
    }

    let dispute = try StripeJSON.decode(Dispute.self, from: data)

    #expect(dispute.id == "dp_1Pgc71B7WZ01zgkWMevJiAUx")
    #expect(dispute.amount == 1000)
    let withdrawalTransaction = try StripeJSON.decode(BalanceTransaction.self, from: Fixture.serialize(withdrawal))
    #expect(dispute.balanceTransactions == [withdrawalTransaction])
    #expect(dispute.balanceTransactions.map(\.id) == ["txn_dispute_withdrawal"])
    #expect(dispute.balanceTransactions.first?.source == BalanceTransactionSource(id: "dp_1Pgc71B7WZ01zgkWMevJiAUx"))
    #expect(dispute.charge == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(dispute.created == 1_234_567_890)
    #expect(dispute.currency == .usd)
    #expect(dispute.isChargeRefundable == false)
    #expect(dispute.livemode == false)
    #expect(dispute.metadata == [:])
    #expect(dispute.paymentIntent == nil)
    #expect(dispute.reason.rawValue == "a_reason_from_the_future")
    #expect(!dispute.reason.isKnown)
    #expect(dispute.status.rawValue == "a_status_from_the_future")
    #expect(!dispute.status.isKnown)
}

@Test func refundDecodesTheSameValuesFieldByField() throws {
    let data = try variant("refund") { json in
        json["reason"] = "a_reason_from_the_future"
        json["status"] = "a_status_from_the_future"
        json["failure_reason"] = nil
        json["charge"] = expanded("ch_1PgafuB7WZ01zgkWXYmPNZs8", "charge")
        json["payment_intent"] = "pi_1PgafyB7WZ01zgkWSjxsAJo3"
        json["transfer_reversal"] = expanded("trr_1Pgc7BB7WZ01zgkWsU61ufNC", "transfer_reversal")
    }

    let refund = try StripeJSON.decode(Refund.self, from: data)

    #expect(refund.id == "re_1Pgc72B7WZ01zgkWqPvrRrPE")
    #expect(refund.amount == 100)
    #expect(refund.balanceTransaction == nil)
    #expect(refund.charge == ExpandableID("ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(refund.created == 1_234_567_890)
    #expect(refund.currency == .usd)
    #expect(refund.failureBalanceTransaction == nil)
    #expect(refund.failureReason == nil)
    #expect(refund.metadata == [:])
    #expect(refund.paymentIntent == ExpandableID("pi_1PgafyB7WZ01zgkWSjxsAJo3"))
    #expect(refund.reason?.rawValue == "a_reason_from_the_future")
    #expect(refund.reason?.isKnown == false)
    #expect(refund.sourceTransferReversal == nil)
    #expect(refund.status?.rawValue == "a_status_from_the_future")
    #expect(refund.status?.isKnown == false)
    #expect(refund.transferReversal == ExpandableID("trr_1Pgc7BB7WZ01zgkWsU61ufNC"))
}

@Test func payoutDecodesTheSameValuesFieldByField() throws {
    // There is no payout fixture: this is the payout of Stripe's API reference, varied.
    let json = """
        {
          "id": "po_1OaFDbEcg9tTZuTgNYmX0PKB", "object": "payout", "amount": 1100, "arrival_date": 1680652800,
          "automatic": true,
          "balance_transaction": {"id": "txn_1OaFDcEcg9tTZuTgYMR25tSe", "object": "balance_transaction"},
          "created": 1680648691, "currency": "usd", "destination": "ba_1MtIhL2eZvKYlo2CAElKwKu2",
          "failure_balance_transaction": null, "failure_code": null, "livemode": false, "metadata": null,
          "method": "a_method_from_the_future", "reconciliation_status": "a_state_from_the_future",
          "source_type": "card", "status": "a_status_from_the_future", "type": "a_type_from_the_future",
          "trace_id": {"status": "unsupported", "value": null}
        }
        """

    let payout = try StripeJSON.decode(Payout.self, from: Data(json.utf8))

    #expect(payout.id == "po_1OaFDbEcg9tTZuTgNYmX0PKB")
    #expect(payout.amount == 1100)
    #expect(payout.arrivalDate == 1_680_652_800)
    #expect(payout.automatic)
    #expect(payout.balanceTransaction == ExpandableID("txn_1OaFDcEcg9tTZuTgYMR25tSe"))
    #expect(payout.created == 1_680_648_691)
    #expect(payout.currency == .usd)
    #expect(payout.description == nil)
    #expect(payout.destination == ExpandableID("ba_1MtIhL2eZvKYlo2CAElKwKu2"))
    #expect(payout.failureBalanceTransaction == nil)
    #expect(payout.failureCode == nil)
    #expect(payout.failureMessage == nil)
    #expect(payout.livemode == false)
    #expect(payout.metadata == [:])
    #expect(payout.method?.rawValue == "a_method_from_the_future")
    #expect(payout.method?.isKnown == false)
    #expect(payout.reconciliationStatus?.rawValue == "a_state_from_the_future")
    #expect(payout.reconciliationStatus?.isKnown == false)
    #expect(payout.sourceType == "card")
    #expect(payout.status.rawValue == "a_status_from_the_future")
    #expect(!payout.status.isKnown)
    #expect(payout.type?.rawValue == "a_type_from_the_future")
    #expect(payout.type?.isKnown == false)
}

@Test func payoutChecksItsObjectTypeAndDefaultsItsMetadata() throws {
    func decode(_ members: String) throws -> Payout {
        let json = """
            {"id": "po_1", "amount": 1100, "arrival_date": 1680652800, "automatic": false, "created": 1680648691,
             "currency": "usd", "livemode": false, "status": "paid"\(members)}
            """
        return try StripeJSON.decode(Payout.self, from: Data(json.utf8))
    }

    let bare = try decode("")
    #expect(try decode(#", "object": "payout", "metadata": {}"#) == bare)
    #expect(try decode(#", "object": null, "metadata": null"#) == bare)
    #expect(try decode(#", "metadata": {"a": "b"}"#).metadata == ["a": "b"])
    #expect(bare.metadata == [:])
    let error = try #require(throws: DecodingError.self) { try decode(#", "object": "transfer""#) }
    #expect(StripeJSON.describe(error) == "expected a 'payout' object, found 'transfer' at object")
}

@Test func stripeErrorBodyDecodesTheSameValuesFieldByField() throws {
    let data = Data(
        #"""
        {"error": {"type": "a_type_from_the_future", "code": "resource_missing", "message": null,
          "param": "id", "a_field_from_the_future": {"nested": true}}, "request_id": "req_1"}
        """#.utf8)

    let body = try StripeJSON.decode(StripeErrorBody.self, from: data)

    #expect(body.type.rawValue == "a_type_from_the_future")
    #expect(!body.type.isKnown)
    #expect(body.code == "resource_missing")
    #expect(body.declineCode == nil)
    #expect(body.docURL == nil)
    #expect(body.message == nil)
    #expect(body.param == "id")
    #expect(body.requestLogURL == nil)
}

// MARK: The `object` member and metadata, for every model

@Test(arguments: FixtureModel.allCases)
func anotherObjectTypeFailsNamingBoth(model: FixtureModel) throws {
    // Given the fixture with an `object` that names another type (a caller decoding the wrong endpoint)
    let data = try Fixture.mutated(model.fileName) { $0["object"] = "coupon" }

    // Then decoding fails at `object`, saying what was expected and what was found
    let error = try #require(throws: DecodingError.self) { try model.decode(data) }
    #expect(StripeJSON.describe(error) == "expected a '\(model.fileName)' object, found 'coupon' at object")
}

@Test(arguments: FixtureModel.allCases)
func anotherModelsJSONFailsOnItsObjectTypeFirst(model: FixtureModel) throws {
    // Given another model's fixture, which also lacks some of this model's required members
    let other = model == .charge ? FixtureModel.transfer : .charge

    // Then the error is the wrong object type, not a missing member
    let error = try #require(throws: DecodingError.self) { try model.decode(Fixture.data(other.fileName)) }
    #expect(
        StripeJSON.describe(error) == "expected a '\(model.fileName)' object, found '\(other.fileName)' at object")
}

@Test(arguments: FixtureModel.allCases)
func aMissingOrNullObjectTypeIsAccepted(model: FixtureModel) throws {
    let original = try model.decodeFixture()
    let missing = try model.decode(Fixture.mutated(model.fileName) { $0["object"] = nil })
    let null = try model.decode(Fixture.mutated(model.fileName) { $0["object"] = NSNull() })

    #expect(missing.isEqual(to: original))
    #expect(null.isEqual(to: original))
}

@Test(arguments: FixtureModel.allCases)
func anObjectTypeThatIsNotAStringFails(model: FixtureModel) throws {
    let data = try Fixture.mutated(model.fileName) { $0["object"] = 7 }

    #expect(throws: DecodingError.self) { try model.decode(data) }
}

/// The fixtures whose model has metadata.
private let modelsWithMetadata: [FixtureModel] = [
    .charge, .paymentIntent, .feeRefund, .transfer, .transferReversal, .dispute, .refund,
]

@Test(arguments: modelsWithMetadata)
func metadataIsKeptAndEmptyWhenAbsentOrNull(model: FixtureModel) throws {
    let given = try model.decode(Fixture.mutated(model.fileName) { $0["metadata"] = ["order_id": "6735", "": ""] })
    let missing = try model.decode(Fixture.mutated(model.fileName) { $0["metadata"] = nil })
    let null = try model.decode(Fixture.mutated(model.fileName) { $0["metadata"] = NSNull() })
    let empty = try model.decodeFixture()

    #expect(metadata(of: given) == ["order_id": "6735", "": ""])
    #expect(metadata(of: missing) == [:])
    #expect(missing.isEqual(to: empty))
    #expect(null.isEqual(to: empty))
}

@Test(arguments: modelsWithMetadata)
func metadataThatIsNotAStringMapFails(model: FixtureModel) throws {
    let number = try Fixture.mutated(model.fileName) { $0["metadata"] = ["count": 3] }
    let list = try Fixture.mutated(model.fileName) { $0["metadata"] = ["a"] }

    #expect(throws: DecodingError.self) { try model.decode(number) }
    #expect(throws: DecodingError.self) { try model.decode(list) }
}

private func metadata(of object: any FixtureObject) -> [String: String]? {
    switch object {
    case let object as Charge: object.metadata
    case let object as PaymentIntent: object.metadata
    case let object as FeeRefund: object.metadata
    case let object as Transfer: object.metadata
    case let object as TransferReversal: object.metadata
    case let object as Dispute: object.metadata
    case let object as Refund: object.metadata
    default: nil
    }
}
