import Foundation

/// The one place connect-recon's blocking work leaves Swift concurrency: reading the history's parts (SQLite),
/// applying the rules to them and writing the report (libxlsxwriter) each run on a thread of their own, awaited
/// by the task that started them, so no caller holds one of the cooperative pool's few threads (two on a two-core
/// machine) while it blocks. (libcurl's requests wait on CurlTransport's worker threads, fed by a queue.)
public enum OwnThread {
    /// Runs `body` on a new thread named `name` and returns its result (or throws its error) to the awaiting caller:
    /// structured, the caller's task does not go on until the thread is done.
    ///
    /// `body` is `sending`: what it captures (a report stream, a queue's end) is the thread's alone from then on,
    /// which the compiler checks at the call. Cancelling the caller does not interrupt `body`: blocking work has to
    /// be stopped by its own means (closing the queue it waits on, for instance).
    public static func run<Value: Sendable, Failure: Error>(
        name: String, _ body: sending @escaping () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let work = MovedClosure(body)
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            let thread = Thread {
                let result = Result { () throws(Failure) -> Value in try work.run() }
                continuation.resume(returning: result)
            }
            thread.name = name
            thread.start()
        }
        return try outcome.get()
    }
}

extension OwnThread {
    /// Starts `body` on a new thread named `name`, from a thread that blocks anyway (the history's reader, splitting
    /// its reading in two); ``Started/join()`` waits for it. Every started thread is joined before its starter
    /// returns, so none outlives the work that started it.
    public static func start<Value: Sendable>(
        name: String, _ body: sending @escaping () throws -> Value
    ) -> Started<Value> {
        let started = Started<Value>()
        let work = MovedClosure(body)
        let thread = Thread {
            let result = Result { try work.run() }
            started.finish(result)
        }
        thread.name = name
        thread.start()
        return started
    }

    /// A thread ``start(name:_:)`` started: its result, once it is done.
    ///
    /// `@unchecked Sendable`: `result` is written once, by the thread, before it signals `done`, and read only after
    /// waiting for `done`.
    public final class Started<Value: Sendable>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var result: Result<Value, any Error>?

        fileprivate init() {}

        fileprivate func finish(_ result: Result<Value, any Error>) {
            self.result = result
            done.signal()
        }

        /// Waits for the thread to end; returns its value or throws its error. Call it once.
        public func join() throws -> Value {
            done.wait()
            guard let result else { preconditionFailure("a started thread sets its result before it ends") }
            return try result.get()
        }
    }
}

/// A closure moved to the one thread that runs it.
///
/// `@unchecked Sendable`: it holds a `sending` closure, so no other reference to what the closure captured exists
/// once it is moved here, and only the new thread calls it, once.
private final class MovedClosure<Value, Failure: Error>: @unchecked Sendable {
    private var body: (() throws(Failure) -> Value)?

    init(_ body: sending @escaping () throws(Failure) -> Value) { self.body = body }

    /// Calls the closure and lets go of it, and of everything it captured, before returning: the caller resumes
    /// only after that, so what the work held (a history's connections, say) is closed when the caller goes on.
    func run() throws(Failure) -> Value {
        guard let body else { preconditionFailure("a moved closure runs once") }
        self.body = nil
        return try body()
    }
}
