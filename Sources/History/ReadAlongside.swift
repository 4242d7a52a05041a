import Foundation
import WorkerThreads

/// The order every ``HistoryDatabase/readAlongside(_:_:release:)`` follows, whatever its database: the second reader
/// starts on a thread of its own and begins its snapshot; only then does the first go on (had the second failed to
/// begin, nothing would end what the first waits for); once the first is done, `release` lets the second end, and the
/// second is joined. The databases say only how each opens, begins and closes its transaction.
enum ReadAlongside {
    /// Runs `second` on a thread of its own (it calls `begun` once its snapshot has begun), then `first` on the calling
    /// thread, then `release`, then waits for `second`. `cannotBegin` runs instead of `first` when `second` ended
    /// without beginning; then its error, if any, is thrown, else the result is `false`. Otherwise `first`'s error is
    /// thrown, else `second`'s, else the result is `true`.
    static func run(
        second: sending @escaping (_ begun: () -> Void) throws -> Void, first: () throws -> Void,
        cannotBegin: () -> Void, release: () -> Void
    ) throws -> Bool {
        let start = SecondReaderStart()
        let helper = OwnThread.start(name: "connect-recon.history-reader-2") {
            defer { start.end() }
            try second { start.begin() }
        }
        guard start.wait() else {
            cannotBegin()
            try helper.join()
            return false
        }
        let firstOutcome = Result { try first() }
        release()
        let secondOutcome = Result { try helper.join() }
        try firstOutcome.get()
        try secondOutcome.get()
        return true
    }
}

/// How the second reader tells the first that its snapshot has begun, or that it ended without beginning one.
///
/// `@unchecked Sendable`: `began` and `told` are written by the second reader alone, `began` before it signals, and
/// `began` is read by the first after waiting for that signal.
private final class SecondReaderStart: @unchecked Sendable {
    private let signal = DispatchSemaphore(value: 0)
    private var began = false
    private var told = false

    /// The second reader's snapshot has begun.
    func begin() {
        began = true
        told = true
        signal.signal()
    }

    /// Called when the second reader's work ends: tells the first, if ``begin()`` did not, that it never began.
    func end() {
        guard !told else { return }
        told = true
        signal.signal()
    }

    /// Waits for the second reader; whether its snapshot began.
    func wait() -> Bool {
        signal.wait()
        return began
    }
}
