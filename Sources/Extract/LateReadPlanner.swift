import History
import ReconCore

/// Turns the objects of the look-back window that are not final (``LateReadPlan``) into requests, the cheaper way
/// for each kind (docs/EXTRACTION.md, "Late outcomes"): by id, with the kind's late-read expansions, where they are
/// fewer than the pages of a `created` window from the oldest of them to the window's end; that window of the kind's
/// list, with the range list's expansions, where they are more. Nothing to read again costs nothing.
enum LateReadPlanner {
    static func work(for plan: LateReadPlan, windowEnd: Int64) -> [ExtractionWork] {
        var work: [ExtractionWork] = []
        for kind in LateOutcomeKind.allCases {
            guard let reads = plan.objects[kind], let oldest = reads.first else { continue }
            let pages = max(1, ((plan.listed[kind] ?? 0) + 99) / 100)
            if pages < reads.count {
                work.append(.list(ListStream(lateReads: listKind(kind), window: oldest.created..<windowEnd)))
            } else {
                work += reads.map { .lateRead(kind: kind.objectKind, id: $0.id) }
            }
        }
        return work
    }

    /// The list that holds a kind's objects.
    static func listKind(_ kind: LateOutcomeKind) -> ListKind { ListKind(kind.objectKind) }
}
