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
