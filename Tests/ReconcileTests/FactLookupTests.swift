import ReconCore
import Testing

@testable import Reconcile

/// ``FactLookup``: the facts of a part by id, the first of a duplicated id winning, in a table of positions of its own.
@Suite struct FactLookupTests {
    private func feeRefund(_ id: String, amount: Int64) -> FeeRefundFacts {
        FeeRefundFacts(
            id: id, feeID: "fee_1", created: 1_700_000_000, currency: .usd, amount: amount, balanceTransactionID: nil)
    }

    @Test func everyIDGivenIsFoundAndNoOtherIs() {
        // Given 20,000 facts with Stripe-like ids (enough for many probes to collide)
        let facts = (0..<20_000).map { feeRefund("fr_1sAGLHtHg4A0000\(String($0, radix: 36))", amount: Int64($0)) }
        let lookup = FactLookup(facts)
        // Then each id finds its own fact, ids never given find nothing, and nothing was dropped
        for (position, fact) in facts.enumerated() { #expect(lookup[fact.id]?.amount == Int64(position)) }
        for missing in ["", "fr_", "fr_1sAGLHtHg4A0000zzzzzz", "fee_1", "FR_1SAGLHTHG4A00000"] {
            #expect(lookup[missing] == nil)
        }
        #expect(lookup.count == facts.count)
        #expect(lookup.unique == facts)
    }

    @Test func theFirstOfADuplicatedIDWinsAndUniqueKeepsTheFirstOfEachInOrder() {
        // Given ids a, b, a, c, b, a, each with an amount of its own
        let facts = [("fr_a", 1), ("fr_b", 2), ("fr_a", 3), ("fr_c", 4), ("fr_b", 5), ("fr_a", 6)].map {
            feeRefund($0.0, amount: Int64($0.1))
        }
        let lookup = FactLookup(facts)
        // Then each id finds its first fact, and `unique` is the first of each, in the order given
        #expect(lookup["fr_a"]?.amount == 1)
        #expect(lookup["fr_b"]?.amount == 2)
        #expect(lookup["fr_c"]?.amount == 4)
        #expect(lookup.count == 3)
        #expect(lookup.unique.map(\.amount) == [1, 2, 4])
    }

    @Test func readTakesFromTheFirstFactWithTheIDOrAnswersNil() {
        let lookup = FactLookup([
            feeRefund("fr_a", amount: 1), feeRefund("fr_b", amount: 2), feeRefund("fr_a", amount: 3),
        ])
        #expect(lookup.read("fr_a") { $0.pointee.amount } == 1)
        #expect(lookup.read("fr_b") { $0.pointee.amount } == 2)
        #expect(lookup.read("fr_c") { $0.pointee.amount } == nil)
    }

    @Test func anEmptyLookupFindsNothing() {
        let lookup = FactLookup([FeeRefundFacts]())
        #expect(lookup["fr_a"] == nil)
        #expect(lookup.count == 0)
        #expect(lookup.unique.isEmpty)
    }
}
