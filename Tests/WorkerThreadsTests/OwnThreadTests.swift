import Foundation
import Testing
import WorkerThreads

@Suite("OwnThread")
struct OwnThreadTests {
    private struct Failed: Error {}

    @Test("run returns the body's value to the awaiting caller")
    func returnsValue() async throws {
        let value = try await OwnThread.run(name: "test.own-thread") { 6 * 7 }
        #expect(value == 42)
    }

    @Test("run throws the body's error to the caller")
    func throwsError() async {
        await #expect(throws: Failed.self) {
            try await OwnThread.run(name: "test.own-thread") { () throws -> Int in throw Failed() }
        }
    }

    @Test("bodies that block leave Swift concurrency's threads free")
    func blockingBodiesDoNotHoldThePool() async throws {
        // More blocked bodies than the pool has threads: on the pool, the task that releases them could never run,
        // and every body would give up after its timeout instead.
        let bodies = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
        let release = DispatchSemaphore(value: 0)
        let released = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<bodies {
                group.addTask {
                    try await OwnThread.run(name: "test.blocked.\(index)") {
                        release.wait(timeout: .now() + .seconds(60)) == .success
                    }
                }
            }
            group.addTask {
                for _ in 0..<bodies { release.signal() }
                return true
            }
            var all: [Bool] = []
            for try await value in group { all.append(value) }
            return all
        }
        #expect(released.count == bodies + 1)
        #expect(released.allSatisfy { $0 })
    }

    private final class Captured: Sendable {}

    @Test("what the body captured is let go of before the caller goes on")
    func capturesAreReleasedBeforeTheCallerResumes() async throws {
        // A history's connections captured by the body must be closed when the caller continues (a test, or the
        // next command, opens the file right after): the thread must not hold them while it winds down.
        for _ in 0..<50 {
            var captured: Captured? = Captured()
            weak let watched = captured
            let body = { [captured] in _ = captured }
            captured = nil
            try await OwnThread.run(name: "test.own-thread.capture", consume body)
            #expect(watched == nil)
        }
    }
}
