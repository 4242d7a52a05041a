/// Hands an extraction's work (list windows, follow-ups) to its fixed set of workers, and counts the list streams
/// in flight per endpoint. Work can be added while workers run (dense windows split, follow-ups are planned);
/// `next()` returns `nil` once nothing is pending and no worker is busy, or after a failure.
actor ExtractionDispatcher<Item: Sendable> {
    private var pending: [Item] = []
    private var busy = 0
    private var waiting: [CheckedContinuation<Item?, Never>] = []
    private var failed = false
    /// List streams in flight per endpoint.
    private var streamsByEndpoint: [String: Int] = [:]

    init(_ items: [Item]) { pending = items.reversed() }

    /// The next item, waiting while others may still add work; `nil` when all is done.
    func next() async -> Item? {
        if failed { return nil }
        if let item = pending.popLast() {
            busy += 1
            return item
        }
        if busy == 0 { return nil }
        return await withCheckedContinuation { waiting.append($0) }
    }

    /// Adds work; a waiting worker takes it at once.
    func add(_ item: Item) {
        guard !failed else { return }
        if let waiter = waiting.popLast() {
            busy += 1
            waiter.resume(returning: item)
        } else {
            pending.append(item)
        }
    }

    /// A worker finished an item.
    func finished() {
        busy -= 1
        if busy == 0 && pending.isEmpty { releaseAll() }
    }

    /// Stops handing out work (after a failure); waiting workers get `nil`.
    func fail() {
        failed = true
        pending.removeAll()
        releaseAll()
    }

    /// A list stream of `endpoint` started paging.
    func streamStarted(_ endpoint: String) { streamsByEndpoint[endpoint, default: 0] += 1 }

    /// A list stream of `endpoint` ended (finished or failed).
    func streamEnded(_ endpoint: String) { streamsByEndpoint[endpoint, default: 1] -= 1 }

    /// List streams of `endpoint` in flight.
    func streams(_ endpoint: String) -> Int { streamsByEndpoint[endpoint, default: 0] }

    /// Workers idle right now: a dense window can be split into as many more pieces.
    var idleWorkers: Int { waiting.count }

    private func releaseAll() {
        let waiters = waiting
        waiting.removeAll()
        for waiter in waiters { waiter.resume(returning: nil) }
    }
}
