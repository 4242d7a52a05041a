import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Suspends until the process receives SIGINT or SIGTERM (Ctrl-C, `kill`), for commands that serve until
/// stopped. The signals are delivered on a dispatch queue: with the worker threads, one of the few places work runs
/// outside Swift concurrency's threads.
public enum SignalWaiter {
    public static func waitForInterrupt() async {
        // The sources live until a signal came: then they are cancelled.
        var sources: [any DispatchSourceSignal] = []
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = ResumeOnce(continuation)
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { once.resume() }
                source.resume()
                sources.append(source)
            }
        }
        for source in sources { source.cancel() }
    }

    /// Resumes a continuation at most once, whichever signal comes first.
    private final class ResumeOnce: Sendable {
        private let continuation: Mutex<CheckedContinuation<Void, Never>?>

        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = Mutex(continuation) }

        func resume() {
            let pending = continuation.withLock { continuation in
                defer { continuation = nil }
                return continuation
            }
            pending?.resume()
        }
    }
}
