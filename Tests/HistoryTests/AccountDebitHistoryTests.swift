import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// The history's side of account debits (docs/RULES.md, "The platform's other money"): which links of the range's
/// debits name nothing the history holds (the Run sheet lists them).
@Suite("Account debits in the history")
struct AccountDebitHistoryTests {
    /// `body` with a new history of `backend` and a run of the day ``MovedByHandHistoryTests`` reconciles.
    static func withDayOfRun(
        _ backend: TestHistoryBackend, _ body: (HistoryStore, Int64) async throws -> Void
    ) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let range = (from: MovedByHandHistoryTests.from, to: MovedByHandHistoryTests.to)
        try await body(store, try store.runs.beginRun(start("run", from: range.from, to: range.to)).runID)
    }

    @Test("a debit's link that names nothing the history holds is listed, on PostgreSQL", .postgreSQLServer)
    func unmatchedLinksOnPostgreSQL() async throws { try await unmatchedLinks(backend: .postgreSQL) }

    @Test("a debit's link that names nothing the history holds is listed", arguments: [TestHistoryBackend.sqlite])
    func unmatchedLinks(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let from = MovedByHandHistoryTests.from
        let run = try store.runs.beginRun(start("run", from: from, to: MovedByHandHistoryTests.to)).runID
        // Given a charge of group order_1 and five debits: naming the charge and the group, naming a charge the
        // history lacks, naming an id under a key not configured, naming the charge and (as its group) a payment id
        // of the platform's own, and naming only such a payment id (its own group, which no other object has)
        var objects = ObjectLists()
        var debits = [
            ("py_1", ["charge": "ch_held"]), ("py_2", ["charge": "ch_gone"]), ("py_3", ["order": "ch_x"]),
            ("py_4", ["charge": "ch_held"]), ("py_5", [:]),
        ].map { id, metadata in
            var debit = MovedByHandHistoryTests.charge(id, created: from + 600)
            debit.facts.paymentMethodType = ChargeFacts.accountDebitMethod
            debit.facts.metadata = metadata
            return debit
        }
        debits[0].facts.transferGroup = "order_1"
        debits[3].facts.transferGroup = "payment-4"
        debits[4].facts.transferGroup = "payment-5"
        objects[stored: ChargeFacts.self] = [MovedByHandHistoryTests.charge("ch_held", group: "order_1")] + debits
        try await store.objects.write(objects, run: run, now: from + 3_600)
        // When the range's unmatched links are asked for
        let unmatched = try await store.gaps.unmatchedDebitLinks(
            from: from, to: MovedByHandHistoryTests.to, keys: ChargeFacts.defaultDebitLinkKeys)
        // Then the debits that name nothing the history holds are listed: the missing charge, and the payment id that
        // only the debit itself carries; py_4's payment id is not, as the charge it names is held
        #expect(
            unmatched == [
                UnmatchedDebitLink(debitID: "py_2", link: "ch_gone"),
                UnmatchedDebitLink(debitID: "py_5", link: "payment-5"),
            ])
        // And the debits as the parts read them know which of their links name nothing held
        let read = try store.read { db in
            try HistoryObjects.accountDebits(db, created: from..<MovedByHandHistoryTests.to)
        }
        let nowhere = Dictionary(uniqueKeysWithValues: read.map { ($0.id, $0.linksHeldNowhere) })
        #expect(nowhere["py_1"] == [] && nowhere["py_4"] == ["payment-4"] && nowhere["py_5"] == ["payment-5"])
        #expect(nowhere["py_3"] == ["ch_x"])
    }

    @Test(
        "every part that judges a refund holds the account debits, whether its charge is the range's or older, on PostgreSQL",
        .postgreSQLServer)
    func debitsInEveryRefundsPartOnPostgreSQL() async throws {
        try await debitsInEveryRefundsPart(backend: .postgreSQL)
    }

    @Test(
        "every part that judges a refund holds the account debits, whether its charge is the range's or older",
        arguments: [TestHistoryBackend.sqlite])
    func debitsInEveryRefundsPart(backend: TestHistoryBackend) async throws {
        try await Self.withDayOfRun(backend) { store, run in
            let (from, to) = (MovedByHandHistoryTests.from, MovedByHandHistoryTests.to)
            // Given a refund in the range of a charge from before it, another of a charge of the range, and a debit of
            // the range naming the older charge
            var debit = MovedByHandHistoryTests.charge("py_debit", created: from + 600)
            debit.facts.paymentMethodType = ChargeFacts.accountDebitMethod
            debit.facts.metadata = ["charge": "ch_old"]
            func refund(_ id: String, of charge: String, created: Int64) -> StoredObject<RefundFacts> {
                StoredObject(
                    facts: RefundFacts(
                        id: id, chargeID: charge, created: created, currency: .usd, amount: 1_000, status: .succeeded,
                        transferReversalID: nil, balanceTransactionID: nil),
                    rawJSON: #"{"id":"\#(id)"}"#)
            }
            var objects = ObjectLists()
            objects[stored: ChargeFacts.self] = [
                MovedByHandHistoryTests.charge("ch_old", created: from - 5 * 86_400),
                MovedByHandHistoryTests.charge("ch_new", created: from + 60), debit,
            ]
            objects[stored: RefundFacts.self] = [
                refund("re_old", of: "ch_old", created: from + 120),
                refund("re_new", of: "ch_new", created: from + 180),
            ]
            try await store.objects.write(objects, run: run, now: to + 600)

            for size in [1, 7] {
                // When the range is read in parts, on two readers
                var judgedRefunds: [String] = []
                try store.parts.forEach(
                    from: from, to: to, asOf: to + 600, skippedTransferGrace: 0, chargesPerPart: size
                ) { part in
                    let judged = part.judged?[.refund] ?? []
                    guard !judged.isEmpty else { return }
                    judgedRefunds += judged
                    // Then each part that judges a refund holds the debit, which may give back what the refund took
                    #expect(part.charges.contains { $0.id == "py_debit" }, "\(size) a part: \(judged.sorted())")
                }
                #expect(judgedRefunds.sorted() == ["re_new", "re_old"], "\(size) a part")
            }
        }
    }

    @Test(
        "a debit naming nothing itself has its transfer read once, and then names what it names, on PostgreSQL",
        .postgreSQLServer)
    func sourceTransfersOnPostgreSQL() async throws { try await sourceTransfers(backend: .postgreSQL) }

    @Test(
        "a debit naming nothing itself has its transfer read once, and then names what it names",
        arguments: [TestHistoryBackend.sqlite])
    func sourceTransfers(backend: TestHistoryBackend) async throws {
        try await Self.withDayOfRun(backend) { store, run in
            let (from, to) = (MovedByHandHistoryTests.from, MovedByHandHistoryTests.to)
            // Given three debits of the range: naming a charge itself, naming nothing, and naming only under a key not
            // configured
            var objects = ObjectLists()
            objects[stored: ChargeFacts.self] = [
                ("py_1", ["charge": "ch_1"]), ("py_2", [:]), ("py_3", ["order": "ch_2"]),
            ]
            .map { id, metadata in
                var debit = MovedByHandHistoryTests.charge(id, created: from + 600)
                debit.facts.paymentMethodType = ChargeFacts.accountDebitMethod
                debit.facts.metadata = metadata
                return debit
            }
            try await store.objects.write(objects, run: run, now: from + 3_600)
            // When the range's gaps are asked for
            let gaps = try await store.gaps.inRange(from: from, to: to, chain: [run])
            // Then the transfers of the two naming nothing under the default keys are lacking, and with `order` among
            // the keys only py_2's
            #expect(gaps.debitSourceTransfers == ["py_2", "py_3"])
            let custom = try await store.gaps.inRange(from: from, to: to, chain: [run], debitLinkKeys: ["order"])
            #expect(custom.debitSourceTransfers == ["py_1", "py_2"])
            // And once py_2's transfer is read (naming a charge the history lacks) and py_3's had none
            try await store.gaps.recordDebitSourceTransfer(
                chargeID: "py_2",
                DebitSourceTransfer(
                    transferID: "tr_2", metadata: ["stripe_charge_id": "ch_gone"], transferGroup: "g_2"),
                run: run)
            try await store.gaps.recordDebitSourceTransfer(chargeID: "py_3", nil, run: run)
            // then nothing is lacking
            #expect(try await store.gaps.inRange(from: from, to: to, chain: [run]).debitSourceTransfers.isEmpty)
            // and py_2 names what its transfer names: neither is held, so both are listed for the Run sheet
            let unmatched = try await store.gaps.unmatchedDebitLinks(
                from: from, to: to, keys: ChargeFacts.defaultDebitLinkKeys)
            #expect(
                unmatched == [
                    UnmatchedDebitLink(debitID: "py_1", link: "ch_1"),
                    UnmatchedDebitLink(debitID: "py_2", link: "ch_gone"),
                    UnmatchedDebitLink(debitID: "py_2", link: "g_2"),
                ])
            // and a charges list that brings py_2 again keeps what its transfer said
            try await store.objects.write(objects, run: run, now: from + 7_200)
            #expect(try await store.gaps.inRange(from: from, to: to, chain: [run]).debitSourceTransfers.isEmpty)
        }
    }
}
