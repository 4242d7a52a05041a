import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// How dense the span before a range was, as the extraction reads it to cut its lists (docs/EXTRACTION.md).
@Suite("Object counts of a span")
struct ObjectCountsTests {
    @Test("the objects of each kind created in a span are counted, on PostgreSQL", .postgreSQLServer)
    func countsOnPostgreSQL() async throws { try await counts(backend: .postgreSQL) }

    @Test("the objects of each kind created in a span are counted", arguments: [TestHistoryBackend.sqlite])
    func counts(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let from = MovedByHandHistoryTests.from
        let run = try store.runs.beginRun(start("run", from: from, to: MovedByHandHistoryTests.to)).runID
        // Given three charges: two in the span, one at its end
        var objects = ObjectLists()
        objects[stored: ChargeFacts.self] = [
            MovedByHandHistoryTests.charge("ch_1", created: from),
            MovedByHandHistoryTests.charge("ch_2", created: from + 10),
            MovedByHandHistoryTests.charge("ch_3", created: from + 100),
        ]
        try await store.objects.write(objects, run: run, now: from + 3_600)
        // When the span [from, from + 100) is counted
        let counts = try await store.gaps.objectCounts(of: [.charge, .refund], createdIn: from..<(from + 100))
        // Then two charges and no refund
        #expect(counts == [.charge: 2, .refund: 0])
    }
}
