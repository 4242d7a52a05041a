import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// The history's side of account debits (docs/RULES.md, "The platform's other money"): which links of the range's
/// debits name nothing the history holds (the Run sheet lists them).
@Suite("Account debits in the history")
struct AccountDebitHistoryTests {
    @Test("a debit's link that names nothing the history holds is listed, on PostgreSQL", .postgreSQLServer)
    func unmatchedLinksOnPostgreSQL() async throws { try await unmatchedLinks(backend: .postgreSQL) }

    @Test("a debit's link that names nothing the history holds is listed", arguments: [TestHistoryBackend.sqlite])
    func unmatchedLinks(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let from = MovedByHandHistoryTests.from
        let run = try store.runs.beginRun(start("run", from: from, to: MovedByHandHistoryTests.to)).runID
        // Given a charge of group order_1 and three debits: naming the charge and the group, naming a charge the
        // history lacks, and naming an id under a key not configured
        var objects = ObjectLists()
        var debits = [("py_1", ["charge": "ch_held"]), ("py_2", ["charge": "ch_gone"]), ("py_3", ["order": "ch_x"])]
            .map { id, metadata in
                var debit = MovedByHandHistoryTests.charge(id, created: from + 600)
                debit.facts.paymentMethodType = ChargeFacts.accountDebitMethod
                debit.facts.metadata = metadata
                return debit
            }
        debits[0].facts.transferGroup = "order_1"
        objects[stored: ChargeFacts.self] = [MovedByHandHistoryTests.charge("ch_held", group: "order_1")] + debits
        try await store.objects.write(objects, run: run, now: from + 3_600)
        // When the range's unmatched links are asked for
        let unmatched = try await store.gaps.unmatchedDebitLinks(
            from: from, to: MovedByHandHistoryTests.to, keys: ChargeFacts.defaultDebitLinkKeys)
        // Then only the missing charge is listed
        #expect(unmatched == [UnmatchedDebitLink(debitID: "py_2", link: "ch_gone")])
    }
}
