import ReconCore
import Testing

/// What an account debit names (docs/RULES.md, "The platform's other money"): the values of its own metadata under the
/// configured keys and its `transfer_group`, then the same of the transfer it was made with; and when the history reads
/// that transfer (only for a debit naming nothing itself).
@Suite struct DebitLinksTests {
    static func debit(
        metadata: [String: String] = [:], transferGroup: String? = nil, sourceTransfer: DebitSourceTransfer? = nil,
        method: String = ChargeFacts.accountDebitMethod
    ) -> ChargeFacts {
        ChargeFacts(
            id: "py_1", created: 0, currency: .usd, amount: 400, amountCaptured: 400, amountRefunded: 0,
            status: .succeeded, captured: true, paymentIntentID: nil, transferID: nil, applicationFeeID: nil,
            applicationFeeAmount: nil, destinationAccountID: nil, transferDataAmount: nil, balanceTransactionID: nil,
            livemode: false, transferGroup: transferGroup, paymentMethodType: method, sourceID: "acct_1",
            metadata: metadata, sourceTransfer: sourceTransfer)
    }

    static let keys = ChargeFacts.defaultDebitLinkKeys

    @Test func theDebitsOwnLinksComeFirstThenItsTransfersWithoutRepeats() {
        let debit = Self.debit(
            metadata: ["refund": "re_1", "charge": "ch_1", "note": "x"], transferGroup: "order_1",
            sourceTransfer: DebitSourceTransfer(
                transferID: "tr_1", metadata: ["stripe_charge_id": "ch_1", "dispute": "dp_1", "reason": "r"],
                transferGroup: "order_2"))
        #expect(debit.debitLinks(keys: Self.keys) == ["ch_1", "re_1", "order_1", "dp_1", "order_2"])
        #expect(!debit.namesNothingItself(keys: Self.keys))
    }

    @Test func aDebitNamingNothingUnderTheKeysHasItsTransferRead() {
        #expect(Self.debit(metadata: ["order": "ch_1", "charge": ""]).namesNothingItself(keys: Self.keys))
        #expect(!Self.debit(metadata: ["order": "ch_1"]).namesNothingItself(keys: ["order"]))
        #expect(!Self.debit(transferGroup: "order_1").namesNothingItself(keys: Self.keys))
        // even when its transfer, read already, names something
        let read = Self.debit(sourceTransfer: DebitSourceTransfer(transferID: "tr_1", metadata: ["charge": "ch_1"]))
        #expect(read.namesNothingItself(keys: Self.keys))
        #expect(read.debitLinks(keys: Self.keys) == ["ch_1"])
    }

    @Test func aChargeThatIsNoDebitNamesNothing() {
        let payment = Self.debit(metadata: ["charge": "ch_1"], method: ChargeFacts.stripeBalanceMethod)
        #expect(payment.debitLinks(keys: Self.keys).isEmpty)
        #expect(!payment.namesNothingItself(keys: Self.keys))
    }
}
