import Foundation
import TestSupport
import Testing

@testable import History

@Suite("History lock")
struct HistoryLockTests {
    @Test("a second writer waits, then fails naming the first; after release it gets the lock")
    func singleWriter() async throws {
        // Given a run holding the lock
        let database = try TemporaryDatabase()
        var first: HistoryLock? = try await HistoryLock.acquire(
            databasePath: database.path, wait: .seconds(1), holder: "run 2026-11-20_2026-11-21")
        // When a second writer asks for it, willing to wait 300 ms on a clock that jumps to each of its retries
        let clock = ManualClock(advancesToEachSleeper: true)
        await #expect {
            _ = try await HistoryLock.acquire(
                databasePath: database.path, wait: .milliseconds(300), holder: "second", clock: clock)
        } throws: { error in
            // Then it fails naming the first
            guard case HistoryError.busy(_, let holder) = error else { return false }
            return holder.contains("pid \(getpid())") && holder.contains("run 2026-11-20_2026-11-21")
        }
        // After waiting the whole 300 ms, and no retry longer
        #expect(clock.now.offset >= .milliseconds(300))
        #expect(clock.now.offset < .milliseconds(400))
        #expect(first != nil)
        first = nil
        let second = try await HistoryLock.acquire(databasePath: database.path, wait: .zero, holder: "second")
        #expect(second.path == database.path + ".lock")
    }

    @Test("a cancelled waiter stops waiting at once, without the lock")
    func cancelledWaiterStops() async throws {
        // Given a run holding the lock, and a second run that would wait half a minute for it (a wait that swallowed
        // the cancellation would sleep all of it out and end with .busy instead)
        let database = try TemporaryDatabase()
        var first: HistoryLock? = try await HistoryLock.acquire(
            databasePath: database.path, wait: .zero, holder: "first")
        let path = database.path
        let waiter = Task { try await HistoryLock.acquire(databasePath: path, wait: .seconds(30), holder: "second") }
        // When the second run is cancelled
        waiter.cancel()
        // Then it ends with the cancellation, not with the lock, and the first run still holds it
        let result = await waiter.result
        #expect(throws: HistoryError.cancelled(path: database.path)) { try result.get() }
        await #expect(throws: HistoryError.self) {
            _ = try await HistoryLock.acquire(databasePath: database.path, wait: .zero, holder: "third")
        }
        #expect(first != nil)
        // And once the first lets go, the lock is free: the cancelled waiter kept nothing
        first = nil
        let third = try await HistoryLock.acquire(databasePath: database.path, wait: .zero, holder: "third")
        #expect(third.path == database.path + ".lock")
    }
}
