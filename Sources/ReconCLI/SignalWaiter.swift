import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Suspends until the process receives SIGINT or SIGTERM (Ctrl-C, `kill`), for commands that serve until
/// stopped.
enum SignalWaiter {
    static func waitForInterrupt() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = ResumeOnce(continuation)
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { once.resume() }
                source.resume()
                once.retain(source)
            }
        }
    }

    /// Resumes a continuation at most once and keeps the signal sources alive until then.
    private final class ResumeOnce: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Void, Never>?
        private var sources: [any DispatchSourceSignal] = []

        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

        func retain(_ source: any DispatchSourceSignal) { lock.withLock { sources.append(source) } }

        func resume() {
            let pending: CheckedContinuation<Void, Never>? = lock.withLock {
                defer { continuation = nil }
                return continuation
            }
            pending?.resume()
        }
    }
}
