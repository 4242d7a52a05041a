import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// The parts' pages in creation order, then id, when objects share a second: the index on `created` gives a second's
/// rows in the order they were stored, and the parts put them in id order (``CreationOrder``).
@Suite("Parts in creation order")
struct PartsCreationOrderTests {
    /// The range is the day 2026-11-21.
    static let from: Int64 = 1_795_219_200
    static let to: Int64 = from + 86_400

    /// 17 charges over 4 seconds (8, 1, 5 and 3 of them), stored in an order unlike their ids', with ids of different
    /// lengths; and 9 refunds of a charge from before the range, in 2 seconds, judged without their charge.
    static func charges() -> [StoredObject<ChargeFacts>] {
        let seconds: [(Int64, [String])] = [
            (from + 10, ["ch_h", "ch_b", "ch_f", "ch_a", "ch_g", "ch_c", "ch_e", "ch_d"]),
            (from + 11, ["ch_z"]),
            (from + 500, ["ch_m9", "ch_m10", "ch_M", "ch_m", "ch_m1"]),
            (to - 1, ["ch_y", "ch_x", "ch_w"]),
        ]
        // Stored second by second from the last, as Stripe's lists (newest first) store them.
        return seconds.reversed().flatMap { created, ids in ids.map { charge($0, created: created) } }
            + [charge("ch_before", created: from - 3_600)]
    }

    static func refunds() -> [StoredObject<RefundFacts>] {
        let seconds: [(Int64, [String])] = [
            (from + 20, ["re_5", "re_1", "re_4", "re_2", "re_3"]),
            (from + 30, ["re_9", "re_7", "re_8", "re_6"]),
        ]
        return seconds.reversed().flatMap { created, ids in
            ids.map { id in
                StoredObject(
                    facts: RefundFacts(
                        id: id, chargeID: "ch_before", created: created, currency: .usd, amount: 10,
                        status: .succeeded, transferReversalID: nil, balanceTransactionID: nil),
                    rawJSON: #"{"id":"\#(id)"}"#)
            }
        }
    }

    static func charge(_ id: String, created: Int64) -> StoredObject<ChargeFacts> {
        MovedByHandHistoryTests.charge(id, created: created)
    }

    @Test(
        "parts of any size judge a second's charges and refunds once each, by creation time then id, on PostgreSQL",
        .postgreSQLServer)
    func partsKeepCreationOrderOnPostgreSQL() async throws { try await partsKeepCreationOrder(backend: .postgreSQL) }

    @Test(
        "parts of any size judge a second's charges and refunds once each, by creation time then id",
        arguments: [TestHistoryBackend.sqlite])
    func partsKeepCreationOrder(backend: TestHistoryBackend) async throws {
        // Given a history whose charges and refunds share seconds, stored out of id order
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = Self.charges()
        batch[stored: RefundFacts.self] = Self.refunds()
        try await store.objects.write(batch, run: run, now: Self.to + 600)
        let inOrder = { (objects: [(created: Int64, id: String)]) in
            objects.sorted {
                $0.created != $1.created
                    ? $0.created < $1.created : Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8))
            }
            .map(\.id)
        }
        let expectedCharges = inOrder(
            Self.charges().map { ($0.facts.created, $0.facts.id) }.filter { $0.created >= Self.from })
        let expectedRefunds = inOrder(Self.refunds().map { ($0.facts.created, $0.facts.id) })
        #expect(expectedCharges.prefix(3) == ["ch_a", "ch_b", "ch_c"])
        #expect(Array(expectedCharges[9..<14]) == ["ch_M", "ch_m", "ch_m1", "ch_m10", "ch_m9"])

        for size in [1, 2, 3, 4, 7, 8, 9, 100] {
            // When the day is read in parts of `size` charges
            var charges: [String] = []
            var refunds: [String] = []
            var largest = 0
            try store.parts.forEach(
                from: Self.from, to: Self.to, asOf: Self.to + 600, skippedTransferGrace: 0, chargesPerPart: size
            ) { part in
                guard let judged = part.judged else { return }
                let judgedCharges = part.charges.filter { judged[.charge].contains($0.id) }.map(\.id)
                let judgedRefunds = part.refunds.filter { judged[.refund].contains($0.id) }.map(\.id)
                largest = max(largest, judgedCharges.count, judgedRefunds.count)
                charges += judgedCharges
                refunds += judgedRefunds
            }

            // Then every charge and refund is judged once, in creation order then id, no part larger than its size
            #expect(charges == expectedCharges, "\(size) a part")
            #expect(refunds == expectedRefunds, "\(size) a part")
            #expect(largest <= size, "\(size) a part")
        }
    }

    @Test("ids of one second compare byte by byte, as the history's collation does, not as Swift's strings do")
    func idsCompareByteByByte() {
        // "é" composed and decomposed are one string to Swift, two ids to SQLite
        let composed = "ch_\u{E9}"
        let decomposed = "ch_e\u{301}"
        #expect(composed == decomposed)
        #expect(CreationOrder.precedes((1, decomposed), (1, composed)))
        #expect(!CreationOrder.precedes((1, composed), (1, decomposed)))
        // Upper case before lower, a prefix before what it begins, creation time before id
        #expect(CreationOrder.precedes((1, "ch_Z"), (1, "ch_a")))
        #expect(CreationOrder.precedes((1, "ch_m1"), (1, "ch_m10")))
        #expect(CreationOrder.precedes((1, "ch_z"), (2, "ch_a")))

        // A page out of id order within a second is sorted, one already in order is left as it is
        var facts = ["ch_c", "ch_a", "ch_b"].map { Self.charge($0, created: 5).facts }
        facts.insert(Self.charge("ch_z", created: 4).facts, at: 0)
        CreationOrder.sort(&facts)
        #expect(facts.map(\.id) == ["ch_z", "ch_a", "ch_b", "ch_c"])
        var second = CreationOrder.Second(created: 5)
        second.ids = [decomposed, "ch_M", composed, "ch_a"]
        #expect(
            second.idsInOrder().map { Array($0.utf8) } == ["ch_M", "ch_a", decomposed, composed].map { Array($0.utf8) })
    }
}
