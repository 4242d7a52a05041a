import Foundation

/// Runs blocking work on a thread of its own, so that a caller in Swift concurrency awaits it without holding one
/// of the cooperative pool's few threads (two on a two-core machine).
public enum OwnThread {
    /// Runs `body` on a new thread named `name` and returns its result (or throws its error) to the awaiting caller.
    ///
    /// Cancelling the caller does not interrupt `body`: blocking work has to be stopped by its own means (closing
    /// the queue it waits on, for instance).
    public static func run<Result: Sendable>(
        name: String, _ body: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            let thread = Thread {
                do {
                    continuation.resume(returning: try body())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.name = name
            thread.start()
        }
    }

    /// Starts `body` on a new thread named `name` and returns at once.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}
