import Testing

@testable import ReconCore

/// The object graph is derived from the catalogue's declarations: these pin what it derives, so that a change to
/// an entry that changes what a part reads is seen here first.
struct ObjectGraphTests {
    @Test func theCatalogueDeclaresTheEdgesOfTheGraph() {
        let edges = ObjectKind.allCases.flatMap { kind in
            kind.entry.parents.map { "\(kind.rawValue).\($0.member) → \($0.parent?.rawValue ?? "any")" }
        }
        #expect(
            edges == [
                "application_fee.originating_transaction → charge", "fee_refund.fee → application_fee",
                "transfer.source_transaction → charge", "transfer.metadata[dispute_id] → dispute",
                "transfer_reversal.transfer → transfer", "balance_transaction.source → any", "dispute.charge → charge",
                "refund.charge → charge",
            ])
    }

    @Test func theKindsThatBelongToAChargeAreJudgedWithIt() {
        #expect(ObjectGraph.rootChildren.map(\.kind) == [.applicationFee, .transfer, .dispute, .refund])
    }

    @Test func aPartReadsEachKindAfterTheKindsItBelongsToAndBalanceTransactionsLast() {
        let steps = ObjectGraph.contextSteps
        #expect(
            steps.map(\.kind) == [
                .paymentIntent, .applicationFee, .feeRefund, .dispute, .refund, .transfer, .transferReversal,
                .balanceTransaction,
            ])
        for (index, step) in steps.enumerated() {
            let earlier = Set([ObjectGraph.root] + steps[..<index].map(\.kind))
            for edge in step.edges { #expect(edge.parent.map(earlier.contains) ?? true) }
            for reference in step.references { #expect(earlier.contains(reference.kind)) }
        }
        // Payouts belong to nothing a charge leads to: a part of charges never reads them.
        #expect(!steps.map(\.kind).contains(.payout))
    }

    @Test func aPartFollowsTheChargesOwnReferencesAndEveryBalanceTransactionNamed() {
        let steps = Dictionary(uniqueKeysWithValues: ObjectGraph.contextSteps.map { ($0.kind, $0) })
        #expect(steps[.paymentIntent]?.references.map(\.columns) == [["payment_intent_id"]])
        #expect(steps[.transfer]?.references.map(\.columns) == [["transfer_id"]])
        #expect(steps[.transfer]?.edges.map(\.column) == ["source_transaction_id", "dispute_id_metadata"])
        #expect(steps[.applicationFee]?.edges.first?.reach == .createdInRange)
        let named = steps[.balanceTransaction]?.references.map(\.kind)
        #expect(
            named
                == [
                    .charge, .paymentIntent, .applicationFee, .feeRefund, .dispute, .refund, .transfer,
                    .transferReversal,
                ].filter { kind in
                    !kind.entry.balanceTransactionColumns.isEmpty
                        || kind.entry.arrays.contains { $0.kind == .balanceTransaction }
                })
    }
}
