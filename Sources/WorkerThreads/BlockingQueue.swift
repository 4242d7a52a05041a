import Foundation

/// A first-in, first-out queue between threads that block: producers push, consumers pop.
///
/// With a `capacity`, ``push(_:)`` waits while the queue is full, so memory stays bounded when the consumer is
/// slower than the producer. The producer ends the queue with ``finish(throwing:)``: consumers drain what is queued,
/// then get `nil` (or the producer's error). Either side can ``close()`` it: what is queued is handed back, blocked
/// producers throw ``Closed`` and consumers get `nil` at once.
///
/// Its methods block the calling thread: call them from threads of their own (``OwnThread``), never from the
/// cooperative pool of Swift concurrency.
///
/// A push wakes one waiting consumer, not every thread asleep on the queue: a pool of 48 transfer threads woken all
/// at once for each request spent a twentieth of an extraction's CPU going back to sleep. One condition serves both
/// kinds of waiters, so a single wake-up is sent only when every thread asleep is of the kind that can go on (no
/// producer waits on an unbounded queue); else all are woken, as a wake-up that reached a producer of a full queue
/// would be lost.
///
/// `@unchecked Sendable`: every stored `var` is read and written only while holding `condition` (a condition
/// variable, which `Synchronization` does not offer: the threads that use the queue sleep in it).
public final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
    /// Thrown by ``push(_:)`` once the queue was closed or finished.
    public struct Closed: Error, Equatable {
        public init() {}
    }

    private let capacity: Int
    private let condition = NSCondition()
    /// The queue is `elements[head...]`; a slot before `head` was popped and holds `nil`, so a popped element is
    /// released by its consumer alone, however long the queue stays non-empty.
    private var elements: [Element?] = []
    private var head = 0
    private var isFinished = false
    private var isClosed = false
    private var failure: (any Error)?
    /// Threads waiting in ``pop()`` for an element, and in ``push(_:)`` for room.
    private var waitingConsumers = 0
    private var waitingProducers = 0

    /// A queue holding at most `capacity` elements (at least one); `nil` for no limit.
    public init(capacity: Int? = nil) {
        self.capacity = max(1, capacity ?? Int.max)
    }

    /// How many elements wait.
    public var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return elements.count - head
    }

    /// Queues `element`, waiting while the queue is full. Throws ``Closed`` once the queue was closed or finished.
    public func push(_ element: Element) throws(Closed) {
        condition.lock()
        defer { condition.unlock() }
        while elements.count - head >= capacity, !isClosed, !isFinished {
            waitingProducers += 1
            condition.wait()
            waitingProducers -= 1
        }
        guard !isClosed, !isFinished else { throw Closed() }
        elements.append(element)
        if waitingConsumers > 0 { wake(alone: waitingProducers == 0) }
    }

    /// The producer is done: consumers get what is queued, then `nil`, or `error` if the producer failed.
    public func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        guard !isFinished else { return }
        isFinished = true
        failure = error
        condition.broadcast()
    }

    /// The next element, waiting for one. `nil` once the queue was closed, or finished and drained; the producer's
    /// error when it finished with one and everything before it was taken.
    public func pop() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.count == head, !isFinished, !isClosed {
            waitingConsumers += 1
            condition.wait()
            waitingConsumers -= 1
        }
        if isClosed { return nil }
        if elements.count > head, let element = elements[head].take() {
            head += 1
            if head == elements.count || head >= 1_024 {
                elements.removeFirst(head)
                head = 0
            }
            if waitingProducers > 0 { wake(alone: waitingConsumers == 0) }
            return element
        }
        if let failure { throw failure }
        return nil
    }

    /// Wakes one waiting thread when they are `alone` (all of the kind that can go on), else every one.
    private func wake(alone: Bool) {
        if alone { condition.signal() } else { condition.broadcast() }
    }

    /// Closes the queue and returns what was still queued. Blocked producers throw ``Closed``; consumers get `nil`.
    @discardableResult
    public func close() -> [Element] {
        condition.lock()
        defer { condition.unlock() }
        isClosed = true
        let abandoned = elements[head...].compactMap { $0 }
        elements = []
        head = 0
        condition.broadcast()
        return abandoned
    }
}
