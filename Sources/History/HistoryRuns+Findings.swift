import ReconCore

extension HistoryRuns {
    /// Records the findings of run `runID` over `[from, to)` and tells which were already open and which earlier
    /// findings are gone (resolved). One transaction.
    ///
    /// A run resolves an earlier finding only when it judged the finding's object itself (docs/REPORTS.md): created in
    /// `[from, to)`, or a late outcome of `late` (whose judging this records too); a finding about no judged object
    /// (an object Stripe answered 404 for) only when the run's range covers the range that last reported it.
    /// Findings about objects outside the run are left as they were: a 3-day re-run after a 30-day run neither
    /// resolves nor re-opens the other 27 days' findings.
    public func recordFindings(
        _ findings: [Finding], run runID: Int64, from: Int64, to: Int64, late: LateOutcomeSelection? = nil
    ) async throws(HistoryError) -> FindingsUpdate {
        try await writeDatabase { db in
            var open = Set<FindingKey>()
            var unique: [FindingKey: Finding] = [:]
            for finding in findings where unique[finding.key] == nil { unique[finding.key] = finding }
            let current = Array(unique.values)
            let upsert = """
                INSERT INTO findings (kind, object_id, first_run, last_run, resolved_run, range_from, range_to,
                                      subject_id, subject_created)
                VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?)
                ON CONFLICT(kind, object_id) DO UPDATE SET last_run = excluded.last_run, resolved_run = NULL,
                    range_from = excluded.range_from, range_to = excluded.range_to,
                    subject_id = excluded.subject_id, subject_created = excluded.subject_created
                RETURNING reported_run
                """
            // Open when a completed run reported it before; what only failed runs saw is still new.
            try db.executeEach(
                upsert,
                current.map {
                    [
                        .text($0.key.kind), .text($0.key.objectID), .integer(runID), .integer(runID), .integer(from),
                        .integer(to), $0.subject.map { .text($0.id) } ?? .null,
                        $0.subject.map { .integer($0.created) } ?? .null,
                    ]
                }
            ) { index, row in
                guard let row, let reportedRun = try row.decode(Int64?.self, atIndex: 0), reportedRun != runID else {
                    return
                }
                open.insert(current[index].key)
            }
            // Gone: reported, unresolved findings about an object this run judged, that it does not find now.
            let lateSubjects =
                late.map { "OR subject_id IN (SELECT l.object_id FROM late_reads l WHERE \($0.condition))" } ?? ""
            let candidates = try db.all(
                """
                SELECT kind, object_id, first_run, last_run FROM findings
                WHERE resolved_run IS NULL AND reported_run IS NOT NULL AND last_run <> ?
                  AND ((subject_created >= ? AND subject_created < ?) \(lateSubjects)
                       OR (subject_created IS NULL AND range_from >= ? AND range_to <= ?))
                """, [.integer(runID), .integer(from), .integer(to), .integer(from), .integer(to)]
            ) { row in
                ResolvedFinding(
                    key: FindingKey(kind: try row.decode(atIndex: 0), objectID: try row.decode(atIndex: 1)),
                    firstRun: try row.decode(atIndex: 2), lastRun: try row.decode(atIndex: 3))
            }
            let resolved = candidates.filter { unique[$0.key] == nil }
            try db.executeEach(
                "UPDATE findings SET resolved_run = ? WHERE kind = ? AND object_id = ?",
                resolved.map { [.integer(runID), .text($0.key.kind), .text($0.key.objectID)] }
            ) { _, _ in }
            if let late { try HistoryGaps.markJudged(db, late, run: runID) }
            return FindingsUpdate(
                open: open,
                resolved: resolved.sorted { ($0.key.kind, $0.key.objectID) < ($1.key.kind, $1.key.objectID) })
        }
    }

    /// Whether a completed run that fetched (`run`, `extract`) covered part of `window`: the history holds days of it
    /// that a report judged, which money moved by hand later can change (docs/RULES.md).
    public func hasCompletedExtraction(overlapping window: Range<Int64>) async throws(HistoryError) -> Bool {
        try await readDatabase { db in
            try db.value(
                Bool.self,
                """
                SELECT EXISTS (SELECT 1 FROM runs WHERE status = 'completed' AND command IN ('extract', 'run')
                               AND range_from < ? AND range_to > ?)
                """, [.integer(window.upperBound), .integer(window.lowerBound)]) ?? false
        }
    }

    /// Whether the history has extracted `[from, to)` completely at least once (a completed run that fetched).
    public func hasCompletedExtraction(from: Int64, to: Int64) throws(HistoryError) -> Bool {
        try read { db in
            try db.value(
                Bool.self,
                """
                SELECT EXISTS (SELECT 1 FROM runs WHERE status = 'completed' AND command IN ('extract', 'run')
                               AND range_from <= ? AND range_to >= ?)
                """, [.integer(from), .integer(to)]) ?? false
        }
    }
}
