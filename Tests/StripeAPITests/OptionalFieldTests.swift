import Foundation
import ReconCore
import StripeAPI
import Testing

/// A field Stripe may leave out or send as `null`, and how to see that it decoded as "none".
struct OptionalField: Sendable, CustomTestStringConvertible {
    let model: FixtureModel
    let key: String
    /// `true` when the decoded model holds no value for the field (`nil`, or empty metadata).
    let isEmpty: @Sendable (any FixtureObject) -> Bool

    var testDescription: String { "\(model.fileName).\(key)" }

    private static func charge(_ key: String, _ isEmpty: @escaping @Sendable (Charge) -> Bool) -> OptionalField {
        OptionalField(model: .charge, key: key) { ($0 as? Charge).map(isEmpty) ?? false }
    }
    private static func intent(_ key: String, _ isEmpty: @escaping @Sendable (PaymentIntent) -> Bool) -> OptionalField {
        OptionalField(model: .paymentIntent, key: key) { ($0 as? PaymentIntent).map(isEmpty) ?? false }
    }
    private static func fee(_ key: String, _ isEmpty: @escaping @Sendable (ApplicationFee) -> Bool) -> OptionalField {
        OptionalField(model: .applicationFee, key: key) { ($0 as? ApplicationFee).map(isEmpty) ?? false }
    }
    private static func feeRefund(_ key: String, _ isEmpty: @escaping @Sendable (FeeRefund) -> Bool) -> OptionalField {
        OptionalField(model: .feeRefund, key: key) { ($0 as? FeeRefund).map(isEmpty) ?? false }
    }
    private static func transfer(_ key: String, _ isEmpty: @escaping @Sendable (Transfer) -> Bool) -> OptionalField {
        OptionalField(model: .transfer, key: key) { ($0 as? Transfer).map(isEmpty) ?? false }
    }
    private static func reversal(_ key: String, _ isEmpty: @escaping @Sendable (TransferReversal) -> Bool)
        -> OptionalField
    {
        OptionalField(model: .transferReversal, key: key) { ($0 as? TransferReversal).map(isEmpty) ?? false }
    }
    private static func transaction(_ key: String, _ isEmpty: @escaping @Sendable (BalanceTransaction) -> Bool)
        -> OptionalField
    {
        OptionalField(model: .balanceTransaction, key: key) { ($0 as? BalanceTransaction).map(isEmpty) ?? false }
    }
    private static func dispute(_ key: String, _ isEmpty: @escaping @Sendable (Dispute) -> Bool) -> OptionalField {
        OptionalField(model: .dispute, key: key) { ($0 as? Dispute).map(isEmpty) ?? false }
    }
    private static func refund(_ key: String, _ isEmpty: @escaping @Sendable (Refund) -> Bool) -> OptionalField {
        OptionalField(model: .refund, key: key) { ($0 as? Refund).map(isEmpty) ?? false }
    }

    static let all: [OptionalField] = [
        charge("application_fee") { $0.applicationFee == nil },
        charge("application_fee_amount") { $0.applicationFeeAmount == nil },
        charge("balance_transaction") { $0.balanceTransaction == nil },
        charge("description") { $0.description == nil },
        charge("failure_balance_transaction") { $0.failureBalanceTransaction == nil },
        charge("failure_code") { $0.failureCode == nil },
        charge("failure_message") { $0.failureMessage == nil },
        charge("metadata") { $0.metadata.isEmpty },
        charge("on_behalf_of") { $0.onBehalfOf == nil },
        charge("payment_intent") { $0.paymentIntent == nil },
        charge("refunds") { $0.refunds == nil },
        charge("source_transfer") { $0.sourceTransfer == nil },
        charge("transfer") { $0.transfer == nil },
        charge("transfer_data") { $0.transferData == nil },
        charge("transfer_group") { $0.transferGroup == nil },
        intent("amount_received") { $0.amountReceived == nil },
        intent("application_fee_amount") { $0.applicationFeeAmount == nil },
        intent("latest_charge") { $0.latestCharge == nil },
        intent("metadata") { $0.metadata.isEmpty },
        intent("on_behalf_of") { $0.onBehalfOf == nil },
        intent("transfer_data") { $0.transferData == nil },
        intent("transfer_group") { $0.transferGroup == nil },
        fee("application") { $0.application == nil },
        fee("balance_transaction") { $0.balanceTransaction == nil },
        fee("fee_source") { $0.feeSource == nil },
        fee("originating_transaction") { $0.originatingTransaction == nil },
        feeRefund("balance_transaction") { $0.balanceTransaction == nil },
        feeRefund("metadata") { $0.metadata.isEmpty },
        transfer("balance_transaction") { $0.balanceTransaction == nil },
        transfer("description") { $0.description == nil },
        transfer("destination") { $0.destination == nil },
        transfer("destination_payment") { $0.destinationPayment == nil },
        transfer("metadata") { $0.metadata.isEmpty },
        transfer("source_transaction") { $0.sourceTransaction == nil },
        transfer("source_type") { $0.sourceType == nil },
        transfer("transfer_group") { $0.transferGroup == nil },
        reversal("balance_transaction") { $0.balanceTransaction == nil },
        reversal("destination_payment_refund") { $0.destinationPaymentRefund == nil },
        reversal("metadata") { $0.metadata.isEmpty },
        reversal("source_refund") { $0.sourceRefund == nil },
        transaction("balance_type") { $0.balanceType == nil },
        transaction("description") { $0.description == nil },
        transaction("exchange_rate") { $0.exchangeRate == nil },
        transaction("source") { $0.source == nil },
        dispute("metadata") { $0.metadata.isEmpty },
        dispute("payment_intent") { $0.paymentIntent == nil },
        refund("balance_transaction") { $0.balanceTransaction == nil },
        refund("charge") { $0.charge == nil },
        refund("failure_balance_transaction") { $0.failureBalanceTransaction == nil },
        refund("failure_reason") { $0.failureReason == nil },
        refund("metadata") { $0.metadata.isEmpty },
        refund("payment_intent") { $0.paymentIntent == nil },
        refund("reason") { $0.reason == nil },
        refund("source_transfer_reversal") { $0.sourceTransferReversal == nil },
        refund("status") { $0.status == nil },
        refund("transfer_reversal") { $0.transferReversal == nil },
    ]
}

@Test(arguments: OptionalField.all)
func optionalFieldRemovedEntirelyDecodesAsNone(field: OptionalField) throws {
    let data = try Fixture.mutated(field.model.fileName) { $0[field.key] = nil }

    let object = try field.model.decode(data)

    #expect(field.isEmpty(object))
    #expect(object.id == field.model.fixtureID)
}

@Test(arguments: OptionalField.all)
func optionalFieldSetToNullDecodesAsNone(field: OptionalField) throws {
    let data = try Fixture.mutated(field.model.fileName) { $0[field.key] = NSNull() }

    let object = try field.model.decode(data)

    #expect(field.isEmpty(object))
    #expect(object.id == field.model.fixtureID)
}

@Test func transferDataWithoutAmountAndWithNullAmountDecodeAlike() throws {
    // Given transfer_data with `amount` left out, and with `amount: null`
    let absent = try Fixture.mutated("charge") { $0["transfer_data"] = ["destination": "acct_1"] }
    let null = try Fixture.mutated("charge") {
        $0["transfer_data"] = ["destination": "acct_1", "amount": NSNull()] as [String: Any]
    }

    let fromAbsent = try StripeJSON.decode(Charge.self, from: absent).transferData
    let fromNull = try StripeJSON.decode(Charge.self, from: null).transferData

    #expect(fromAbsent == fromNull)
    #expect(fromAbsent?.amount == nil)
    #expect(fromAbsent?.destinationAccountID == "acct_1")
}
