import Foundation
import StripeAPI
import Synchronization

typealias JobContinuation = CheckedContinuation<Result<HTTPResponse, TransportError>, Never>

/// One request on its way through a worker, and the one continuation waiting for it.
///
/// The continuation is resumed exactly once, by whichever comes first: the worker's result, the caller's
/// cancellation, or shutdown. Later attempts are no-ops, so nothing leaks and nothing resumes twice.
///
/// `@unchecked Sendable`: the C objects in ``prepared`` are touched only by the one worker that took the request
/// (the hand-over through the queue's lock orders it after the caller built them); everything else is
/// behind the mutex or immutable.
final class PendingRequest: @unchecked Sendable {
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

    /// Whether the caller gave up; a worker skips or aborts such a request.
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
        .invalidRequest("\(prepared.label): cancelled (the calling task was cancelled before a response arrived)")
    }
}
