/// Arithmetic on half-open intervals of Unix seconds.
enum Intervals {
    /// `whole` minus the union of `parts`, in order.
    static func subtract(_ parts: [Range<Int64>], from whole: Range<Int64>) -> [Range<Int64>] {
        var remaining: [Range<Int64>] = whole.isEmpty ? [] : [whole]
        for part in parts.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            remaining = remaining.flatMap { piece -> [Range<Int64>] in
                guard piece.overlaps(part) else { return [piece] }
                var pieces: [Range<Int64>] = []
                if piece.lowerBound < part.lowerBound { pieces.append(piece.lowerBound..<part.lowerBound) }
                if part.upperBound < piece.upperBound { pieces.append(part.upperBound..<piece.upperBound) }
                return pieces
            }
        }
        return remaining
    }

    /// `interval` cut into `count` consecutive pieces of (nearly) equal length, none empty.
    static func split(_ interval: Range<Int64>, into count: Int) -> [Range<Int64>] {
        let span = interval.upperBound - interval.lowerBound
        let pieces = Int64(max(1, min(Int64(count), span)))
        return (0..<pieces).map {
            (interval.lowerBound + span * $0 / pieces)..<(interval.lowerBound + span * ($0 + 1) / pieces)
        }
    }

    /// `interval` cut into consecutive pieces of at most `length` seconds.
    static func split(_ interval: Range<Int64>, length: Int64) -> [Range<Int64>] {
        var pieces: [Range<Int64>] = []
        var start = interval.lowerBound
        while start < interval.upperBound {
            let end = min(interval.upperBound, start + length)
            pieces.append(start..<end)
            start = end
        }
        return pieces
    }
}
