import Foundation
import Synchronization
import Testing
import WorkerThreads

@Suite("BlockingQueue")
struct BlockingQueueTests {
    private struct ProducerFailed: Error, Equatable {}

    @Test("elements come out in the order they went in, then nil once finished")
    func fifoThenNil() throws {
        let queue = BlockingQueue<Int>()
        for value in 1...5 { try queue.push(value) }
        queue.finish()
        var taken: [Int] = []
        while let value = try queue.pop() { taken.append(value) }
        #expect(taken == [1, 2, 3, 4, 5])
        #expect(try queue.pop() == nil)
    }

    @Test("a popped element belongs to its consumer alone, though the queue never empties")
    func poppedElementsAreReleased() throws {
        // Given a queue a producer keeps ahead of its consumer: it never runs empty
        final class Batch: Sendable {}
        let queue = BlockingQueue<Batch>(capacity: 2)
        try queue.push(Batch())
        weak var released: Batch?
        for _ in 0..<3 {
            try queue.push(Batch())
            // When the consumer takes the oldest and is done with it
            func takeAndDrop() throws {
                let taken = try #require(try queue.pop())
                released = taken
            }
            try takeAndDrop()
            // Then nothing keeps it alive (a queue that kept its popped slots held up to a thousand batches)
            #expect(released == nil)
        }
        #expect(queue.count == 1)
    }

    @Test("the producer's error reaches the consumer after what was queued before it")
    func producerErrorAfterDrain() throws {
        let queue = BlockingQueue<Int>(capacity: 4)
        try queue.push(7)
        queue.finish(throwing: ProducerFailed())
        #expect(try queue.pop() == 7)
        #expect(throws: ProducerFailed.self) { try queue.pop() }
    }

    @Test(
        "many consumers and producers through a small queue: every element is taken once and every thread ends",
        .timeLimit(.minutes(1)))
    func everyWaiterIsWoken() throws {
        // Given 16 consumers and 4 producers sharing a queue of 3 (each wakes one waiter of the other kind)
        let queue = BlockingQueue<Int>(capacity: 3)
        let taken = Mutex<[Int]>([])
        let consumersDone = DispatchSemaphore(value: 0)
        let producersDone = DispatchSemaphore(value: 0)
        for index in 0..<16 {
            startThread("test.consumer.\(index)") {
                while let value = try? queue.pop() { taken.withLock { $0.append(value) } }
                consumersDone.signal()
            }
        }
        for producer in 0..<4 {
            startThread("test.producer.\(producer)") {
                for value in 0..<2_500 { try? queue.push(producer * 2_500 + value) }
                producersDone.signal()
            }
        }
        // When every producer is done and the queue finished
        for _ in 0..<4 { producersDone.wait() }
        queue.finish()
        // Then every consumer ends (none left asleep) and each element was taken exactly once
        for _ in 0..<16 { consumersDone.wait() }
        #expect(taken.withLock { $0.sorted() } == Array(0..<10_000))
    }

    @Test("a full queue holds the producer until the consumer takes one")
    func fullQueueBlocksProducer() throws {
        let queue = BlockingQueue<Int>(capacity: 1)
        try queue.push(1)
        let pushed = DispatchSemaphore(value: 0)
        startThread("test.producer") {
            try? queue.push(2)
            pushed.signal()
        }
        // Can only pass wrongly (the producer not scheduled yet), never fail wrongly.
        #expect(pushed.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
        #expect(queue.count == 1)
        #expect(try queue.pop() == 1)
        pushed.wait()
        #expect(try queue.pop() == 2)
    }

    @Test("closing releases a blocked producer with Closed and hands back what was queued")
    func closeReleasesProducer() throws {
        let queue = BlockingQueue<Int>(capacity: 2)
        try queue.push(1)
        try queue.push(2)
        let producerThrew = Mutex<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        startThread("test.producer") {
            // The queue is full and nobody pops: this push can only end by the close.
            let threw = (try? queue.push(3)) == nil
            producerThrew.withLock { $0 = threw }
            done.signal()
        }
        let abandoned = queue.close()
        done.wait()
        #expect(abandoned == [1, 2])
        #expect(producerThrew.withLock { $0 } == true)
        #expect(try queue.pop() == nil)
        #expect(throws: BlockingQueue<Int>.Closed.self) { try queue.push(4) }
    }

    @Test("closing wakes a consumer waiting on an empty queue with nil")
    func closeWakesConsumer() throws {
        let queue = BlockingQueue<Int>()
        let result = Mutex<Int??>(nil)
        let done = DispatchSemaphore(value: 0)
        startThread("test.consumer") {
            let value = try? queue.pop()
            result.withLock { $0 = .some(value ?? nil) }
            done.signal()
        }
        queue.close()
        done.wait()
        #expect(result.withLock { $0 } == .some(nil))
    }

    @Test("many producers and consumers deliver every element exactly once")
    func manyProducersAndConsumers() async throws {
        let queue = BlockingQueue<Int>(capacity: 8)
        let producers = 4
        let perProducer = 2_000
        let finishedProducers = Mutex(0)
        for producer in 0..<producers {
            startThread("test.producer.\(producer)") {
                for index in 0..<perProducer { try? queue.push(producer * perProducer + index) }
                let last = finishedProducers.withLock { count in
                    count += 1
                    return count == producers
                }
                if last { queue.finish() }
            }
        }
        async let first = OwnThread.run(name: "test.consumer.0") { try Self.drain(queue) }
        async let second = OwnThread.run(name: "test.consumer.1") { try Self.drain(queue) }
        let all = try await first + second
        #expect(all.count == producers * perProducer)
        #expect(Set(all) == Set(0..<(producers * perProducer)))
    }

    private static func drain(_ queue: BlockingQueue<Int>) throws -> [Int] {
        var taken: [Int] = []
        while let value = try queue.pop() { taken.append(value) }
        return taken
    }
}

/// Starts `body` on a thread of its own and returns at once: the blocked producers and consumers these tests need
/// (the product awaits its threads through ``OwnThread/run(name:_:)``).
private func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.name = name
    thread.start()
}
