import ExtractionTestSupport
import Foundation
import ReconCore
import Sandbox
import TestSupport
import Testing

@testable import History

/// The parts read on two connections (``HistoryParts/forEach(from:to:asOf:skippedTransferGrace:chargesPerPart:late:
/// run:_:)``): one snapshot for both, whatever commits meanwhile, and no reader left waiting when the parts' consumer
/// stops.
@Suite("The parts read on two connections")
struct PartsReadAlongsideTests {
    @Test("the second connection reads the snapshot the first began with, though a write commits before it reads")
    func bothReadersSeeOneSnapshot() throws { try bothReadersSeeOneSnapshot(backend: .sqlite) }

    @Test(
        "the second connection reads the snapshot the first began with, though a write commits before it reads, on PostgreSQL",
        .postgreSQLServer)
    func bothReadersSeeOneSnapshotOnPostgreSQL() throws { try bothReadersSeeOneSnapshot(backend: .postgreSQL) }

    func bothReadersSeeOneSnapshot(backend: TestHistoryBackend) throws {
        // Given a history with one row in `meta`, and a second store on it that writes while the readers read
        let folder = try TemporaryFolder()
        let location = try HistoryLocation(try backend.newHistory(in: folder))
        let store = try HistoryStore.open(location)
        let writer = try HistoryStore.open(location)
        let count = "SELECT COUNT(*) FROM meta"
        try store.parts.write { db in try db.execute("INSERT INTO meta (key, value) VALUES ('snapshot-test', 'a')") }
        let before = try store.parts.read { db in try db.value(Int.self, count, []) }

        // When the first reader counts, a row commits, and only then does the second reader count
        let secondMayRead = DispatchSemaphore(value: 0)
        let secondCounted = DispatchSemaphore(value: 0)
        let seen = SeenCounts()
        let alongside = try store.parts.readAlongside(
            { db in
                seen.first = try db.value(Int.self, count, [])
                try writer.parts.write { db in
                    try db.execute("INSERT INTO meta (key, value) VALUES ('snapshot-test-2', 'b')")
                }
                secondMayRead.signal()
                secondCounted.wait()
            },
            { db in
                secondMayRead.wait()
                seen.second = try db.value(Int.self, count, [])
                secondCounted.signal()
            }, release: {})

        // Then both saw the history as it was when they began; a read after them sees the new row
        #expect(alongside)
        #expect(seen.first == before && seen.second == before)
        let after = try store.parts.read { db in try db.value(Int.self, count, []) }
        #expect(after == before.map { $0 + 1 })
    }

    @Test("while the commit barrier stands, a write from another connection waits; it commits once the barrier lifts")
    func theCommitBarrierHoldsWritesBack() async throws {
        // Given a SQLite history and its commit barrier
        let folder = try TemporaryFolder()
        let path = folder.path("history.sqlite")
        let store = try HistoryStore.open(path: path)
        let barrier = try #require(SQLiteCommitBarrier(path: path))

        // When another connection writes while it stands
        let writing = Task.detached {
            try HistoryStore.open(path: path).parts.write { db in
                try db.execute("INSERT INTO meta (key, value) VALUES ('barrier-test', 'a')")
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        let held = try store.parts.read { db in try db.value(Int.self, "SELECT COUNT(*) FROM meta", []) }
        barrier.lift()
        try await writing.value

        // Then nothing had committed before the barrier lifted, and the write did after
        let after = try store.parts.read { db in try db.value(Int.self, "SELECT COUNT(*) FROM meta", []) }
        #expect(after == held.map { $0 + 1 })
    }

    // The limit catches a reader left waiting forever. Most of the test's time is the extraction before it: 145 s on
    // a slow 2-core machine running the whole suite, where one minute failed a test that hung nowhere.
    @Test(
        "a consumer that stops at the first part ends both readers, though the second waits with its read-ahead full",
        .timeLimit(.minutes(5)))
    func aStoppedConsumerEndsBothReaders() async throws {
        // Given a history whose payouts alone make more parts of one object than the second reader reads ahead
        let harness = try await ExtractionHarness { $0.charges = 200 }
        let store = try harness.store(.sqlite)
        try await harness.extract(store: store, client: try harness.client())
        let (from, to) = (ExtractionHarness.start, ExtractionHarness.start + 10 * ExtractionHarness.day)
        var payoutParts = 0
        try store.parts.forEach(from: from, to: to, asOf: to, skippedTransferGrace: 0, chargesPerPart: 1) { part in
            if !part.payouts.isEmpty { payoutParts += 1 }
        }
        #expect(payoutParts > HistoryParts.partsReadAhead)

        // When the consumer throws at the first part
        struct Stop: Error {}
        var parts = 0
        #expect(throws: Stop.self) {
            try store.parts.forEach(from: from, to: to, asOf: to, skippedTransferGrace: 0, chargesPerPart: 1) { _ in
                parts += 1
                throw Stop()
            }
        }

        // Then its error comes back at once, and the history reads again (no reader holds a transaction)
        #expect(parts == 1)
        var again = 0
        try store.parts.forEach(from: from, to: to, asOf: to, skippedTransferGrace: 0) { _ in again += 1 }
        #expect(again > 0)
    }
}

extension PartsReadAlongsideTests {
    @Test(
        "two readers hand over the same parts, in the same order, as one connection reads them (the fallback)",
        arguments: [1, 7, 5_000])
    func twoReadersHandOverWhatOneConnectionReads(chargesPerPart: Int) async throws {
        // Given a history of a sandbox world, read as one connection reads it when the second cannot be opened in the
        // same snapshot: every part of the first reader's steps, then the second's
        let harness = try await ExtractionHarness { $0.charges = 120 }
        let store = try harness.store(.sqlite)
        try await harness.extract(store: store, client: try harness.client())
        let (from, to) = (ExtractionHarness.start, ExtractionHarness.start + 10 * ExtractionHarness.day)
        var alone: [PartPrint] = []
        try store.parts.readSnapshot { db in
            let loader = PartLoader(
                db: db, from: from, to: to, asOf: to, grace: 0, size: chargesPerPart, late: nil, runID: nil)
            try loader.parts(.alone) { alone.append(PartPrint($0)) }
        }

        // When the same range is read on two connections (the odd charges' parts by the second)
        var shared: [PartPrint] = []
        try store.parts.forEach(
            from: from, to: to, asOf: to, skippedTransferGrace: 0, chargesPerPart: chargesPerPart
        ) { shared.append(PartPrint($0)) }

        // Then the parts are the same, in the same order, and there are several charges' parts to share
        #expect(shared == alone)
        #expect(alone.filter { !$0.charges.isEmpty }.count > (chargesPerPart < 120 ? 2 : 0))
        try await harness.close()
    }
}

/// What a part judges and holds, to compare two reads of the same parts.
private struct PartPrint: Equatable, CustomStringConvertible {
    let charges: [String]
    let judged: [String]
    let objects: Int
    let ledgerTotals: Int

    init(_ part: ReconciliationInput) {
        charges = part.charges.map(\.id)
        judged = (part.judged?.kinds ?? []).sorted { $0.rawValue < $1.rawValue }.flatMap { kind in
            (part.judged?[kind] ?? []).sorted().map { "\(kind.rawValue):\($0)" }
        }
        objects = part.objectCount
        ledgerTotals = part.ledgerTotals.count
    }

    var description: String { "\(judged.prefix(3))… (\(objects) objects)" }
}

/// What each reader counted. `@unchecked Sendable`: each is written by one reader, and read after both are done.
private final class SeenCounts: @unchecked Sendable {
    var first: Int?
    var second: Int?
}
