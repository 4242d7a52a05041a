import History
import ReconCore

extension HistoryParts {
    /// The whole range `[from, to)` as one input: its parts (``forEach(from:to:asOf:skippedTransferGrace:chargesPerPart:late:_:)``)
    /// merged, each object once. The reconciler fed it makes the report the parts make; tests use it to look at a
    /// range's facts at once and to hold the parts to the same report.
    public func whole(
        from: Int64, to: Int64, asOf: Int64, skippedTransferGrace: Int64,
        chargesPerPart: Int? = nil,
        late: LateOutcomeSelection? = nil
    ) throws -> ReconciliationInput {
        var parts: [ReconciliationInput] = []
        try forEach(
            from: from, to: to, asOf: asOf, skippedTransferGrace: skippedTransferGrace, chargesPerPart: chargesPerPart,
            late: late
        ) { parts.append($0) }
        return ReconciliationInput(merging: parts)
    }
}
