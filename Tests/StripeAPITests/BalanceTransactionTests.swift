import Foundation
import ReconCore
import StripeAPI
import Testing

@Test func balanceTransactionFixtureDecodesWithItsValues() throws {
    let transaction = try Fixture.decode(BalanceTransaction.self, "balance_transaction")

    #expect(transaction.id == "txn_1PgaxNB7WZ01zgkWEV3TLf40")
    #expect(transaction.amount == 100)
    #expect(transaction.availableOn == 1_234_567_890)
    #expect(transaction.balanceType == .payments)
    #expect(transaction.created == 1_234_567_890)
    #expect(transaction.currency == .usd)
    #expect(transaction.description == "My First Test Charge (created for API docs)")
    #expect(transaction.exchangeRate == nil)
    #expect(transaction.fee == 0)
    #expect(transaction.feeDetails.isEmpty)
    #expect(transaction.net == 100)
    #expect(transaction.reportingCategory == .charge)
    #expect(transaction.source == BalanceTransactionSource(id: "ch_1PgafuB7WZ01zgkWXYmPNZs8"))
    #expect(transaction.source?.objectType == nil)
    #expect(transaction.status == .available)
    #expect(transaction.type == .charge)
}

@Test func disputeWithdrawalDecodesSignsAndFeeDetails() throws {
    let data = try Fixture.serialize(Fixture.disputeWithdrawal())

    let transaction = try StripeJSON.decode(BalanceTransaction.self, from: data)

    #expect(transaction.amount == -1000)
    #expect(transaction.fee == 1500)
    #expect(transaction.net == -2500)
    #expect(transaction.type == .adjustment)
    #expect(transaction.reportingCategory == .dispute)
    #expect(transaction.source?.id == "dp_1Pgc71B7WZ01zgkWMevJiAUx")
    let feeDetail = try #require(transaction.feeDetails.first)
    #expect(transaction.feeDetails.count == 1)
    #expect(feeDetail.amount == 1500)
    #expect(feeDetail.application == nil)
    #expect(feeDetail.currency == .usd)
    #expect(feeDetail.description == "Dispute fee")
    #expect(feeDetail.type == .stripeFee)
}

@Test func balanceTransactionInAnotherCurrencyKeepsItsExchangeRate() throws {
    // Given an application fee settled in EUR from a USD charge
    let data = try Fixture.mutated("balance_transaction") { json in
        json["currency"] = "eur"
        json["exchange_rate"] = 0.912345
        json["type"] = "application_fee"
        json["reporting_category"] = "platform_earning"
        json["fee_details"] = [
            [
                "amount": 12, "application": "ca_QXhWOVlWX7KFerjnWFSGuGR21sZjCeji", "currency": "eur",
                "type": "application_fee",
            ]
        ]
    }

    let transaction = try StripeJSON.decode(BalanceTransaction.self, from: data)

    #expect(transaction.currency == .eur)
    #expect(transaction.exchangeRate == 0.912345)
    #expect(transaction.type == .applicationFee)
    #expect(transaction.reportingCategory == .platformEarning)
    #expect(transaction.feeDetails.first?.application == "ca_QXhWOVlWX7KFerjnWFSGuGR21sZjCeji")
    #expect(transaction.feeDetails.first?.description == nil)
}

@Test(arguments: [
    ("type", "brand_new_type"),
    ("reporting_category", "brand_new_category"),
    ("balance_type", "brand_new_balance"),
    ("status", "something_new"),
])
func balanceTransactionWithUnknownEnumValueDecodesToTheOpenValue(key: String, value: String) throws {
    let data = try Fixture.mutated("balance_transaction") { $0[key] = value }

    let transaction = try StripeJSON.decode(BalanceTransaction.self, from: data)

    let decoded: String? =
        switch key {
        case "type": transaction.type.rawValue
        case "reporting_category": transaction.reportingCategory.rawValue
        case "balance_type": transaction.balanceType?.rawValue
        default: transaction.status.rawValue
        }
    #expect(decoded == value)
}

@Test func feeDetailWithUnknownTypeDecodes() throws {
    let data = try Fixture.mutated("balance_transaction") { json in
        json["fee_details"] = [["amount": 3, "currency": "usd", "type": "brand_new_fee"]]
    }

    let transaction = try StripeJSON.decode(BalanceTransaction.self, from: data)

    #expect(transaction.feeDetails.first?.type == FeeDetailType(rawValue: "brand_new_fee"))
    #expect(transaction.feeDetails.first?.type.isKnown == false)
}

@Test func balanceTransactionTypeKnowsAllFiftyValuesOnce() {
    let raw = BalanceTransactionType.knownValues.map(\.rawValue)

    #expect(raw.count == 50)
    #expect(Set(raw).count == 50)
    #expect(raw.first == "adjustment")
    #expect(raw.last == "transfer_refund")
    #expect(BalanceTransactionType.transferRefund.rawValue == "transfer_refund")
    #expect(
        BalanceTransactionType.stripeBalancePaymentDebitReversal.rawValue == "stripe_balance_payment_debit_reversal")
}
