import Foundation
import ReconCore
import StripeAPI
import Testing

/// An automatic payout as Stripe's API reference shows one (https://docs.stripe.com/api/payouts/object), with
/// the fields a 2026 response adds (`payout_method`, `trace_id`, `reconciliation_status`…).
private let payoutJSON = """
    {
      "id": "po_1OaFDbEcg9tTZuTgNYmX0PKB",
      "object": "payout",
      "amount": 1100,
      "application_fee": null,
      "application_fee_amount": null,
      "arrival_date": 1680652800,
      "automatic": true,
      "balance_transaction": "txn_1OaFDcEcg9tTZuTgYMR25tSe",
      "created": 1680648691,
      "currency": "usd",
      "description": "STRIPE PAYOUT",
      "destination": "ba_1MtIhL2eZvKYlo2CAElKwKu2",
      "failure_balance_transaction": null,
      "failure_code": null,
      "failure_message": null,
      "livemode": false,
      "metadata": {},
      "method": "standard",
      "original_payout": null,
      "payout_method": null,
      "reconciliation_status": "completed",
      "reversed_by": null,
      "source_type": "card",
      "statement_descriptor": null,
      "status": "paid",
      "trace_id": {"status": "unsupported", "value": null},
      "type": "bank_account"
    }
    """

private func payout(_ change: (inout [String: Any]) -> Void = { _ in }) throws -> Payout {
    var json = try #require(try JSONSerialization.jsonObject(with: Data(payoutJSON.utf8)) as? [String: Any])
    change(&json)
    return try StripeJSON.decode(Payout.self, from: try JSONSerialization.data(withJSONObject: json))
}

@Test func payoutDecodesWithItsValues() throws {
    let payout = try payout()

    #expect(payout.id == "po_1OaFDbEcg9tTZuTgNYmX0PKB")
    #expect(payout.amount == 1100)
    #expect(payout.arrivalDate == 1_680_652_800)
    #expect(payout.automatic)
    #expect(payout.balanceTransaction == ExpandableID("txn_1OaFDcEcg9tTZuTgYMR25tSe"))
    #expect(payout.created == 1_680_648_691)
    #expect(payout.currency == .usd)
    #expect(payout.description == "STRIPE PAYOUT")
    #expect(payout.destination?.id == "ba_1MtIhL2eZvKYlo2CAElKwKu2")
    #expect(payout.failureBalanceTransaction == nil)
    #expect(payout.failureCode == nil)
    #expect(payout.livemode == false)
    #expect(payout.metadata.isEmpty)
    #expect(payout.method == .standard)
    #expect(payout.reconciliationStatus == "completed")
    #expect(payout.sourceType == "card")
    #expect(payout.status == .paid)
    #expect(payout.type == .bankAccount)
}

@Test func failedPayoutDecodesItsFailureAndAnExpandedBalanceTransaction() throws {
    // Given a payout the bank returned, its failure balance transaction expanded
    let failure: [String: Any] = [
        "id": "txn_failure", "object": "balance_transaction", "amount": 1100, "available_on": 1_680_739_200,
        "created": 1_680_735_091, "currency": "usd", "description": "STRIPE PAYOUT", "exchange_rate": NSNull(),
        "fee": 0, "fee_details": [], "net": 1100, "reporting_category": "payout_reversal",
        "source": "po_1OaFDbEcg9tTZuTgNYmX0PKB", "status": "available", "type": "payout_failure",
    ]
    let payout = try payout { json in
        json["status"] = "failed"
        json["failure_code"] = "account_closed"
        json["failure_message"] = "The bank account has been closed."
        json["failure_balance_transaction"] = failure
    }

    #expect(payout.status == .failed)
    #expect(payout.failureCode == "account_closed")
    #expect(payout.failureBalanceTransaction?.id == "txn_failure")
    let transaction = try StripeJSON.decode(
        BalanceTransaction.self, from: JSONSerialization.data(withJSONObject: failure))
    #expect(transaction.type == .payoutFailure)
}

@Test func aPayoutStatusOrTypeStripeAddsLaterStillDecodes() throws {
    // Given values no Stripe version had when this was written, and a field nobody knows
    let payout = try payout { json in
        json["status"] = "held_for_review"
        json["type"] = "wallet"
        json["method"] = "same_day"
        json["a_field_from_the_future"] = ["nested": true]
    }

    #expect(payout.status.rawValue == "held_for_review")
    #expect(!payout.status.isKnown)
    #expect(payout.type?.rawValue == "wallet")
    #expect(payout.method?.isKnown == false)
}

@Test(arguments: ["id", "amount", "currency", "created", "arrival_date", "status"])
func aPayoutWithoutARequiredFieldFailsToDecode(_ field: String) {
    #expect(throws: DecodingError.self) { _ = try payout { $0[field] = nil } }
}

@Test func payoutJSONIsStoredWithItsReferencesFolded() {
    // Given a payout whose own balance transaction was expanded
    let expanded = payoutJSON.replacingOccurrences(
        of: #""balance_transaction": "txn_1OaFDcEcg9tTZuTgYMR25tSe""#,
        with: #""balance_transaction": {"id": "txn_1OaFDcEcg9tTZuTgYMR25tSe", "object": "balance_transaction"}"#)
    // Then it folds to the same bytes as the unexpanded payout
    #expect(ExpansionFolding.of(.payout).fold(expanded) == ExpansionFolding.of(.payout).fold(payoutJSON))
    #expect(
        ExpansionFolding.of(.payout).fold(expanded).contains(#""balance_transaction":"txn_1OaFDcEcg9tTZuTgYMR25tSe""#))
}
