import Foundation
import StripeAPI
import Synchronization

// MARK: Jobs and the queue between callers and worker threads

typealias JobContinuation = CheckedContinuation<Result<HTTPResponse, TransportError>, Never>

/// One request on its way through a worker, and the one continuation waiting for it.
///
/// The continuation is resumed exactly once, by whichever comes first: the worker's result, the caller's
/// cancellation, or shutdown. Later attempts are no-ops, so nothing leaks and nothing resumes twice.
///
/// `@unchecked Sendable`: the C objects in ``prepared`` are touched only by the one worker that took the job
/// (the hand-over through the queue's lock orders it after the caller built them); everything else is
/// behind the mutex or immutable.
final class Job: @unchecked Sendable {
    let prepared: PreparedRequest

    private struct State {
        var continuation: JobContinuation?
        var isCancelled = false
    }
    private let state = Mutex(State())

    init(prepared: consuming PreparedRequest) {
        self.prepared = prepared
    }

    var endpoint: String { prepared.endpoint }

    /// Whether the caller gave up; a worker skips or aborts such a job.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Stores the caller's continuation; false (and the continuation already resumed) if it was cancelled first.
    func attach(_ continuation: JobContinuation) -> Bool {
        let cancelledFirst = state.withLock { state in
            if state.isCancelled { return true }
            state.continuation = continuation
            return false
        }
        if cancelledFirst { continuation.resume(returning: .failure(cancellationError)) }
        return !cancelledFirst
    }

    /// The caller's task was cancelled: answer it now; the worker notices and aborts the transfer.
    func cancel() {
        let continuation = state.withLock { state in
            state.isCancelled = true
            return state.continuation.take()
        }
        continuation?.resume(returning: .failure(cancellationError))
    }

    /// Delivers the result, unless the caller was already answered.
    func finish(_ result: Result<HTTPResponse, TransportError>) {
        let continuation = state.withLock { $0.continuation.take() }
        continuation?.resume(returning: result)
    }

    private var cancellationError: TransportError {
        .invalidRequest("GET \(endpoint): cancelled (the calling task was cancelled before a response arrived)")
    }
}

/// A FIFO of jobs shared by the caller side and the worker threads, plus the workers' start and exit count.
///
/// `@unchecked Sendable`: every stored `var` is read and written only while holding `condition`.
final class JobQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var isClosed = false
    private var startedWorkers = 0
    private var failedWorkers = 0
    private var runningWorkers = 0

    /// Set by ``close()``; read by progress callbacks on every tick without taking the lock.
    private let shuttingDown = Atomic<Bool>(false)

    /// Whether ``close()`` was called: running transfers should abort.
    var isShuttingDown: Bool { shuttingDown.load(ordering: .relaxed) }

    /// Queues a job; false once the queue is closed.
    func submit(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// The next job, waiting for one; nil once the queue is closed (the worker should exit).
    func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !isClosed { condition.wait() }
        guard !isClosed else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count || head >= 1024 {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    /// Closes the queue and returns the jobs no worker took; running transfers are told to abort.
    func close() -> [Job] {
        shuttingDown.store(true, ordering: .relaxed)
        condition.lock()
        defer { condition.unlock() }
        isClosed = true
        let abandoned = Array(jobs[head...])
        jobs = []
        head = 0
        condition.broadcast()
        return abandoned
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
