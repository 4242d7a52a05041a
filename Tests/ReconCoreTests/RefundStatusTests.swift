import ReconCore
import Testing

/// Which refunds moved money (docs/RULES.md): the one predicate the rules and the history's follow-ups both read.
@Suite struct RefundStatusTests {
    static func refund(_ status: RefundStatus?) -> RefundFacts {
        RefundFacts(
            id: "re_1", chargeID: "ch_1", created: 0, currency: .usd, amount: 100, status: status,
            transferReversalID: nil, balanceTransactionID: nil)
    }

    @Test(arguments: [
        (RefundStatus?.some(.succeeded), true), (.some(.pending), true), (.some(.requiresAction), true),
        (.some(.failed), false), (.some(.canceled), false), (.some(RefundStatus(rawValue: "reversed_by_bank")), true),
        (nil, true),
    ])
    func aRefundMovedMoneyUnlessItFailedOrWasCanceled(status: RefundStatus?, moved: Bool) {
        #expect(Self.refund(status).movedMoney == moved)
    }
}
