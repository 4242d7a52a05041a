import Foundation
import Testing

@testable import History

@Suite("History lock")
struct HistoryLockTests {
    @Test("a second writer waits, then fails naming the first; after release it gets the lock")
    func singleWriter() async throws {
        let database = try TemporaryDatabase()
        var first: HistoryLock? = try await HistoryLock.acquire(
            databasePath: database.path, wait: .seconds(1), holder: "run 2026-11-20_2026-11-21")
        let clock = ContinuousClock()
        let started = clock.now
        await #expect {
            _ = try await HistoryLock.acquire(databasePath: database.path, wait: .milliseconds(300), holder: "second")
        } throws: { error in
            guard case HistoryError.busy(_, let holder) = error else { return false }
            return holder.contains("pid \(getpid())") && holder.contains("run 2026-11-20_2026-11-21")
        }
        #expect(clock.now - started >= .milliseconds(300))
        #expect(first != nil)
        first = nil
        let second = try await HistoryLock.acquire(databasePath: database.path, wait: .zero, holder: "second")
        #expect(second.path == database.path + ".lock")
    }
}
