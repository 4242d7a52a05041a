/// Stripe's cursor pagination over a table sorted by creation time: newest first (descending index),
/// `limit`, `starting_after` / `ending_before` and `created` bounds, over either the whole table (optionally
/// scanning with a predicate) or an explicit candidate list (a filter with few results).
struct PageRequest {
    var limit = 10
    /// Index of the `starting_after` object (page older than it).
    var startingAfter: Int?
    /// Index of the `ending_before` object (page newer than it).
    var endingBefore: Int?
    var createdGTE: Int64?
    var createdGT: Int64?
    var createdLTE: Int64?
    var createdLT: Int64?
}

enum Paging {
    /// The page of object indexes, newest first, and whether more objects follow in the paging direction.
    static func page(
        created: [Int64], candidates: [Int32]?, matches predicate: ((Int) -> Bool)?, request: PageRequest
    ) -> (items: [Int], hasMore: Bool) {
        var lower = 0
        var upper = created.count
        if let value = request.createdGTE { lower = max(lower, firstIndex(created) { $0 >= value }) }
        if let value = request.createdGT { lower = max(lower, firstIndex(created) { $0 > value }) }
        if let value = request.createdLT { upper = min(upper, firstIndex(created) { $0 >= value }) }
        if let value = request.createdLTE { upper = min(upper, firstIndex(created) { $0 > value }) }
        if let cursor = request.startingAfter { upper = min(upper, cursor) }
        if let cursor = request.endingBefore { lower = max(lower, cursor + 1) }
        guard lower < upper else { return ([], false) }

        let count = candidates?.count ?? created.count
        let element: (Int) -> Int =
            if let candidates { { Int(candidates[$0]) } } else { { $0 } }
        // Positions in the candidate sequence of the first element ≥ lower and ≥ upper.
        let start = firstPosition(count, element, lower)
        let stop = firstPosition(count, element, upper)
        let limit = request.limit
        var items: [Int] = []
        items.reserveCapacity(limit + 1)
        if request.endingBefore == nil {
            var position = stop - 1
            while position >= start, items.count <= limit {
                let index = element(position)
                if predicate?(index) ?? true { items.append(index) }
                position -= 1
            }
            let hasMore = items.count > limit
            if hasMore { items.removeLast() }
            return (items, hasMore)
        } else {
            var position = start
            while position < stop, items.count <= limit {
                let index = element(position)
                if predicate?(index) ?? true { items.append(index) }
                position += 1
            }
            let hasMore = items.count > limit
            if hasMore { items.removeLast() }
            return (items.reversed(), hasMore)
        }
    }

    private static func firstIndex(_ values: [Int64], _ isAtOrPast: (Int64) -> Bool) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let mid = (low + high) / 2
            if isAtOrPast(values[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    private static func firstPosition(_ count: Int, _ element: (Int) -> Int, _ bound: Int) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if element(mid) >= bound { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
