import Foundation
import ReconCore

/// Hands the parts of a range from the thread that reads them out of the history to the one that applies the
/// rules, so reading the next part and judging this one overlap.
///
/// At most `capacity` parts wait, so memory stays bounded when the rules are slower than the reads. The reader
/// ends the queue with `nil` or its error; the consumer can cancel, which makes the reader's next ``push(_:)``
/// throw so it stops reading.
final class PartQueue: @unchecked Sendable {
    /// Thrown to the reader when the consumer cancelled.
    struct Cancelled: Error {}

    private let capacity: Int
    /// Guards everything below it.
    private let condition = NSCondition()
    private var parts: [ReconciliationInput] = []
    private var ended = false
    private var failure: (any Error)?
    private var cancelled = false

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Queues `part`; blocks while the queue is full. Throws ``Cancelled`` once the consumer cancelled.
    func push(_ part: ReconciliationInput) throws {
        condition.lock()
        defer { condition.unlock() }
        while parts.count >= capacity, !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        parts.append(part)
        condition.broadcast()
    }

    /// The reader is done: no more parts, and `error` if it failed.
    func end(_ error: (any Error)?) {
        condition.lock()
        defer { condition.unlock() }
        ended = true
        failure = error
        condition.broadcast()
    }

    /// The next part, waiting for the reader; `nil` when it ended well; the reader's error when it failed.
    func pop() throws -> ReconciliationInput? {
        condition.lock()
        defer { condition.unlock() }
        while parts.isEmpty, !ended { condition.wait() }
        if !parts.isEmpty {
            condition.broadcast()
            return parts.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the reader and waits until it has ended (its read transaction is closed then).
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        parts.removeAll()
        condition.broadcast()
        while !ended { condition.wait() }
    }
}
