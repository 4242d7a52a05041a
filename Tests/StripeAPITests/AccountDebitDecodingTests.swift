import Foundation
import ReconCore
import StripeAPI
import Testing

/// An account debit as Stripe's "Debit a connected account" logs it (`POST /v1/charges` with `source=acct_…`), and the
/// source and payment method of an ordinary charge: what the rules read to tell them apart (docs/RULES.md, "The
/// platform's other money").
@Suite struct AccountDebitDecodingTests {
    static let debit = """
        { "id": "py_1RlEayB3KTBdesMMUuSPHFj0", "object": "charge", "amount": 200, "amount_captured": 200,
          "amount_refunded": 0, "application_fee": null, "application_fee_amount": null,
          "balance_transaction": "txn_1RlEazB3KTBdesMMMLJPQJg6", "captured": true, "created": 1752800000,
          "currency": "usd", "description": null, "destination": null, "disputed": false,
          "failure_balance_transaction": null, "failure_code": null, "failure_message": null, "livemode": false,
          "metadata": {}, "on_behalf_of": null, "paid": true, "payment_intent": null,
          "payment_method_details": { "stripe_account": {}, "type": "stripe_account" }, "refunded": false,
          "source": { "id": "acct_1RlAGqPnLlHhkn0m", "object": "account" },
          "source_transfer": "tr_1RlEayPnLlHhkn0mWAhazoRx", "status": "succeeded", "transfer_data": null,
          "transfer_group": null }
        """

    @Test func anAccountDebitDecodesWithTheAccountItDebited() throws {
        let charge = try StripeJSON.decode(Charge.self, from: Data(Self.debit.utf8))
        #expect(charge.paymentMethodDetails?.type == "stripe_account")
        #expect(charge.source == ChargeSource(id: "acct_1RlAGqPnLlHhkn0m", objectType: "account"))
        #expect(charge.sourceTransfer == ExpandableID("tr_1RlEayPnLlHhkn0mWAhazoRx"))
    }

    @Test func anOrdinaryChargesSourceAndPaymentMethodDecode() throws {
        let charge = try Fixture.decode(Charge.self, "charge")
        #expect(charge.paymentMethodDetails?.type == "card")
        #expect(charge.source?.objectType == "source")
        #expect(charge.source?.id?.isEmpty == false)
    }

    @Test(arguments: [
        #"null"#, #""src_1""#, #"{"object": "bank_account"}"#, #"{"id": 7, "object": "card"}"#, #"[1, 2]"#,
    ])
    func aSourceOfAnyShapeNeverFailsItsCharge(source: String) throws {
        let json = Self.debit.replacingOccurrences(
            of: #"{ "id": "acct_1RlAGqPnLlHhkn0m", "object": "account" }"#, with: source)
        let charge = try StripeJSON.decode(Charge.self, from: Data(json.utf8))
        #expect(charge.source?.id == (source == #""src_1""# ? "src_1" : nil))
    }

    @Test(arguments: [#"null"#, #"{}"#, #"{"type": 5}"#, #"{"type": "link", "link": {}}"#])
    func paymentMethodDetailsOfAnyShapeNeverFailItsCharge(details: String) throws {
        let json = Self.debit.replacingOccurrences(
            of: #"{ "stripe_account": {}, "type": "stripe_account" }"#, with: details)
        let charge = try StripeJSON.decode(Charge.self, from: Data(json.utf8))
        #expect(charge.paymentMethodDetails?.type == (details.contains(#""link""#) ? "link" : nil))
    }

    /// The debit as `GET /v1/charges/{id}?expand[]=source_transfer` returns it when the platform debited with a
    /// transfer on the account, labelled as GOV.UK Pay labels its transfers (docs/RULES.md).
    static let debitWithItsTransfer = debit.replacingOccurrences(
        of: #""source_transfer": "tr_1RlEayPnLlHhkn0mWAhazoRx""#,
        with: """
            "source_transfer": { "id": "tr_1RlEayPnLlHhkn0mWAhazoRx", "object": "transfer", "amount": 200,
              "amount_reversed": 0, "created": 1752800000, "currency": "usd", "destination": "acct_1Platform",
              "destination_payment": "py_1RlEayB3KTBdesMMUuSPHFj0", "livemode": false,
              "metadata": { "stripe_charge_id": "ch_3Ab", "reason": "transfer_refund_amount" },
              "reversed": false, "source_transaction": null, "transfer_group": "payment-5x" }
            """)

    @Test func anExpandedSourceTransferDecodesWithItsLabels() throws {
        let debit = try StripeJSON.decode(AccountDebitTransfer.self, from: Data(Self.debitWithItsTransfer.utf8))
        #expect(debit.id == "py_1RlEayB3KTBdesMMUuSPHFj0")
        #expect(
            debit.sourceTransfer
                == DebitSourceTransfer(
                    transferID: "tr_1RlEayPnLlHhkn0mWAhazoRx",
                    metadata: ["stripe_charge_id": "ch_3Ab", "reason": "transfer_refund_amount"],
                    transferGroup: "payment-5x"))
        // and the charge model still reads its id
        let charge = try StripeJSON.decode(Charge.self, from: Data(Self.debitWithItsTransfer.utf8))
        #expect(charge.sourceTransfer == ExpandableID("tr_1RlEayPnLlHhkn0mWAhazoRx"))
    }

    @Test(arguments: [
        (#""tr_1""#, DebitSourceTransfer(transferID: "tr_1")), (#"null"#, nil),
        (#"{"id": "tr_2", "metadata": null, "transfer_group": 7}"#, DebitSourceTransfer(transferID: "tr_2")),
        (#"{"id": "tr_3", "metadata": {"charge": 5}}"#, DebitSourceTransfer(transferID: "tr_3")),
    ])
    func aSourceTransferNotExpandedOrOddlyShapedNamesNothing(member: String, expected: DebitSourceTransfer?) throws {
        let json = Self.debit.replacingOccurrences(of: #""tr_1RlEayPnLlHhkn0mWAhazoRx""#, with: member)
        let debit = try StripeJSON.decode(AccountDebitTransfer.self, from: Data(json.utf8))
        #expect(debit.sourceTransfer == expected)
    }

    @Test func anotherObjectIsNoDebit() throws {
        let json = Self.debit.replacingOccurrences(of: #""object": "charge""#, with: #""object": "transfer""#)
        #expect(throws: (any Error).self) {
            try StripeJSON.decode(AccountDebitTransfer.self, from: Data(json.utf8))
        }
    }
}
