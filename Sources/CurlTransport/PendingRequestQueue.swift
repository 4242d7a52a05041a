import Foundation
import Synchronization
import WorkerThreads

/// The requests waiting for a worker thread, in order, and the workers' start and exit count.
///
/// `@unchecked Sendable`: the worker counts are read and written only while holding `condition`; the requests wait in a
/// ``BlockingQueue``, which guards itself.
final class PendingRequestQueue: @unchecked Sendable {
    private let pendingRequests = BlockingQueue<PendingRequest>()
    private let condition = NSCondition()
    private var startedWorkers = 0
    private var failedWorkers = 0
    private var runningWorkers = 0

    /// Set by ``close()``; read by progress callbacks on every tick without taking a lock.
    private let shuttingDown = Atomic<Bool>(false)

    /// Whether ``close()`` was called: running transfers should abort.
    var isShuttingDown: Bool { shuttingDown.load(ordering: .relaxed) }

    /// Queues a request; false once the queue is closed.
    func submit(_ pending: PendingRequest) -> Bool {
        (try? pendingRequests.push(pending)) != nil
    }

    /// The next request, waiting for one; nil once the queue is closed (the worker should exit).
    func next() -> PendingRequest? {
        // The queue is only ever closed, never finished with an error.
        (try? pendingRequests.pop()) ?? nil
    }

    /// Closes the queue and returns the requests no worker took; running transfers are told to abort.
    func close() -> [PendingRequest] {
        shuttingDown.store(true, ordering: .relaxed)
        return pendingRequests.close()
    }

    // MARK: Worker lifecycle

    /// A worker thread reports whether it could create its easy handle.
    func workerStarted(successfully: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if successfully {
            startedWorkers += 1
            runningWorkers += 1
        } else {
            failedWorkers += 1
        }
        condition.broadcast()
    }

    /// A worker thread has freed its handle and is about to end.
    func workerExited() {
        condition.lock()
        defer { condition.unlock() }
        runningWorkers -= 1
        condition.broadcast()
    }

    /// Waits until `count` workers reported; returns how many failed.
    func waitForWorkersToStart(count: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        while startedWorkers + failedWorkers < count { condition.wait() }
        return failedWorkers
    }

    /// Waits until every started worker has exited.
    func waitForWorkersToExit() {
        condition.lock()
        defer { condition.unlock() }
        while runningWorkers > 0 { condition.wait() }
    }
}
