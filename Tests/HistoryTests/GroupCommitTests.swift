import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

@Suite("Page writes committed together")
struct GroupCommitTests {
    /// A page of two charges of its own.
    private func page(_ index: Int) -> ObjectLists {
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = [charge("ch_\(index)_a"), charge("ch_\(index)_b")]
        return batch
    }

    @Test(
        "pages written at once are committed in fewer transactions, each page with its own outcome, on PostgreSQL",
        .postgreSQLServer)
    func queuedPagesShareTransactionsOnPostgreSQL() async throws {
        try await queuedPagesShareTransactions(backend: .postgreSQL)
    }

    @Test(
        "pages written at once are committed in fewer transactions, each page with its own outcome",
        arguments: [TestHistoryBackend.sqlite])
    func queuedPagesShareTransactions(backend: TestHistoryBackend) async throws {
        // Given 40 pages written at the same moment, as the extraction's streams write them
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start()).runID
        let outcomes = try await withThrowingTaskGroup(of: WriteOutcome.self) { group in
            for index in 0..<40 {
                let batch = page(index)
                group.addTask { try await store.objects.write(batch, run: run, now: 1) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then each page's caller learns its own two new objects, all 80 are stored once with their change,
        // and the pages that queued behind a transaction shared the next one
        #expect(outcomes.count == 40)
        #expect(outcomes.allSatisfy { $0 == WriteOutcome(new: 2) })
        #expect(try store.objects.count(of: .charge) == 80)
        #expect(try store.objects.changes(run: run)[.charge]?.new == 80)
        #expect(await store.objects.pageWrites.commits < 40)
    }

    private struct Refused: Error {}

    @Test(
        "a page whose write fails fails its caller, no page is stored in part, and a failed page written again is stored"
    )
    func aFailingPageLeavesNoHalfPage() async throws {
        // Given pages written at once, one of which fails after storing its objects
        let database = try TemporaryDatabase()
        let store = try database.open()
        let run = try store.runs.beginRun(start()).runID
        let results = await withTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<20 {
                let batch = page(index)
                group.addTask {
                    if index == 7 {
                        let failed =
                            (try? await store.objects.pageWrites.write { db in
                                _ = try HistoryObjects.store(
                                    batch, into: store.objects.database, db: db, run: run, completing: nil,
                                    windowObjects: 0, now: 1, leavingOut: store.objects.pageWrites.written)
                                throw Refused()
                            }) == nil
                        return (index, !failed)
                    }
                    return (index, (try? await store.objects.write(batch, run: run, now: 1)) != nil)
                }
            }
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }

        // Then the failing page's caller got the error, and every page is either stored whole (its caller
        // succeeded) or not at all (its caller failed with it)
        #expect(results[7] == false)
        let stored = Set(try store.objects.charges(createdFrom: 0, to: .max).map(\.id))
        for index in 0..<20 {
            let expected = results[index] == true
            #expect(stored.contains("ch_\(index)_a") == expected, "page \(index)")
            #expect(stored.contains("ch_\(index)_b") == expected, "page \(index)")
        }

        // When the failed pages are written again in the same run (the objects the failed transaction held are not
        // taken for written: ``RunWrites``)
        for index in 0..<20 where results[index] != true {
            #expect(try await store.objects.write(page(index), run: run, now: 1) == WriteOutcome(new: 2))
        }
        // Then every page is stored
        #expect(try store.objects.count(of: .charge) == 40)
    }
}
