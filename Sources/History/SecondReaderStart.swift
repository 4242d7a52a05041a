import Foundation

/// How the second reader of ``HistoryDatabase/readAlongside(_:_:release:)`` tells the first that its snapshot has begun (the
/// first may go on), or that it could not begin one (the first must not start: nothing would end what it waits for).
///
/// `@unchecked Sendable`: `began` is written by the second reader before it signals, and read by the first after
/// waiting for that signal.
final class SecondReaderStart: @unchecked Sendable {
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
