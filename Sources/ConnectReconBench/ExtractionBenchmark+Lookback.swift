import CurlTransport
import Extract
import Foundation
import History
import ReconCore
import Sandbox

/// Issue 26's part of measurement (a): a scenario measured again with the look-back of late outcomes on (14 days,
/// grace 3,600 s: the CLI's defaults), over a history that holds the window before the range as earlier runs left
/// it, so that the look-back's queries and requests are really made. The window is extracted into a history first
/// (untimed, look-back off, from a second sandbox of the same world without latency or limits); its state is then
/// set with the `sqlite3` tool (``LookbackWindowEdits``), and each run gets its own copy of that history.
extension ExtractionBenchmark {
    /// A state of the look-back window a scenario is measured with.
    enum LookbackState: Equatable {
        /// Every object of the window that a run would read again made final: the look-back's queries run and find
        /// nothing, so the run should cost what it costs with the look-back off.
        case nothingPending
        /// Every tenth charge of the window (by creation time) made `pending` in a history otherwise as settled as
        /// ``nothingPending``'s: the objects read again, and how (by id or a window of the list: the planner's choice).
        case tenthOfChargesPending
        /// The window as its extraction left it, nothing edited: what the sandbox's world holds not final then.
        case asExtracted
        /// The window extracted from the world as of the range's start, as the nights before left it (set final as
        /// ``nothingPending``'s): the range's reversals of earlier transfers and transfers of earlier groups are then
        /// news the run must fetch (docs/RULES.md, "Money moved by hand, across time"), as on a real platform; the
        /// other states' windows, extracted at the world's end, already hold them.
        case leftByTheNightsBefore

        var name: String {
            switch self {
            case .nothingPending: "look-back on, nothing pending"
            case .tenthOfChargesPending: "look-back on, a tenth of the window's charges pending"
            case .asExtracted: "look-back on, the window as extracted (not settled)"
            case .leftByTheNightsBefore: "look-back on, the window as the nights before left it (money moved by hand)"
            }
        }
    }

    /// How many times the look-back off and the look-back with nothing pending are each measured, alternately.
    static let lookbackRounds = 2

    /// The scenario's range `range` extracted again: with the look-back off, then on in each of the scenario's
    /// window states, each into its own copy of the history filled with the window first.
    func measureLookback(
        _ scenario: Scenario, index: Int, servers: (measured: SandboxServer, fill: SandboxServer),
        fillOptions: SandboxOptions, range: Range<Int64>, start: Int64, now: Int64, today: Observation, listed: Int,
        log: @escaping @Sendable (String) -> Void
    ) async throws -> [Figure] {
        let window = max(start, range.lowerBound - Self.lookback)..<range.lowerBound
        let filled = folder.appendingPathComponent("lookback-\(index)-filled.sqlite").path
        let settled = folder.appendingPathComponent("lookback-\(index)-settled.sqlite").path
        let measured = folder.appendingPathComponent("lookback-\(index)-run.sqlite").path
        let nightsBefore = folder.appendingPathComponent("lookback-\(index)-nights-before.sqlite").path

        // The window, as earlier runs would have left it in the history: untimed, look-back off.
        let transport = try Self.transport(concurrency: 8)
        let fill = try await timedExtraction(
            server: servers.fill, from: window.lowerBound, to: window.upperBound, now: now,
            into: Self.freshSQLiteHistory(filled), through: transport,
            options: Extractor.Options(concurrency: 8, settleMargin: 300), limited: false)
        transport.shutdown()
        try SQLiteCommand.copyDatabase(filled, to: settled)
        let settledCounts = try LookbackWindowEdits.settle(settled, window: window, now: now)
        let settledText = settledCounts.map { "\($0.count) \($0.kind)" }.joined(separator: ", ")
        log(
            "extraction [\(scenario.name)]: look-back window \(Self.days(window)) filled with "
                + "\(Format.count(fill.summary.objects)) objects in \(Format.seconds(fill.seconds)) (untimed); "
                + "settled with UPDATE statements run by the sqlite3 tool: \(settledText)")
        var figures = [
            Figure(
                "**\(scenario.name), look-back \(Self.lookback / 86_400) d, grace \(Self.grace) s**",
                "window \(Self.days(window)) extracted first into the history (untimed, look-back off): "
                    + "\(Format.count(fill.summary.objects)) objects; then set final with UPDATE statements run by "
                    + "the sqlite3 tool (facts and raw JSON): \(settledText)")
        ]
        let todayPerHundred = Double(today.requests) * 100 / Double(listed)
        let todayText =
            "today (fresh history, look-back off): \(Self.perHundred(todayPerHundred)) per 100, "
            + Format.seconds(today.seconds)

        // One run of the range on a copy of `history`: the look-back's figures and its own requests.
        var runs = 0
        func extract(
            _ name: String, history: String, lookback: Int64, edit: (String) throws -> Void = { _ in }
        ) async throws -> (observed: Observation, own: LookbackRequests?) {
            try SQLiteCommand.copyDatabase(history, to: measured)
            try edit(measured)
            try await Task.sleep(for: .seconds(1.5))  // let the sandbox's rate windows empty
            let observed = try await observedExtraction(
                server: servers.measured, range: range, now: now, into: .sqliteFile(path: measured),
                options: Self.options(lookback: lookback))
            runs += 1
            Self.writeTimeline(
                observed.timeline, name: "\(range.lowerBound)-\(range.upperBound)-history-\(runs)-lookback-\(lookback)")
            let own =
                lookback > 0 ? try await lookbackRequests(observed, history: measured, range: range, now: now) : nil
            log(
                "extraction [\(scenario.name), \(name)]: \(observed.requests) requests in "
                    + "\(Format.seconds(observed.seconds)), \(observed.summary.followUps) follow-ups; "
                    + "by endpoint: \(observed.endpoints)" + (own.map { "; \($0.description)" } ?? ""))
            return (observed, own)
        }
        func perHundred(_ observed: Observation) -> Double { Double(observed.requests) * 100 / Double(listed) }
        /// `45, 43 requests (1.14, 1.09 per 100 listed); 1.16, 1.14 s`.
        func values(of runs: [Observation]) -> String {
            runs.map { "\($0.requests)" }.joined(separator: ", ") + " requests ("
                + runs.map { Self.perHundred(perHundred($0)) }.joined(separator: ", ") + " per 100 listed); "
                + runs.map { Format.seconds($0.seconds) }.joined(separator: ", ")
        }
        func meanSeconds(_ runs: [Observation]) -> Double {
            runs.map(\.seconds).reduce(0, +) / Double(max(runs.count, 1))
        }
        /// What the look-back read and asked for, and what the run asked for beyond a look-back-off run.
        func detail(_ run: (observed: Observation, own: LookbackRequests?), against off: Observation) -> String {
            let beyond = Self.difference(run.observed.byEndpoint, off.byEndpoint)
            return (run.own ?? LookbackRequests()).description + "; beyond the look-back-off run: "
                + (beyond.isEmpty ? "nothing" : beyond)
        }

        // The look-back off and on with nothing pending, alternately and each first in turn (off, on, on, off…), so
        // that their spread shows in one run and neither gains from its place.
        var off: [Observation] = []
        var quiet: [(observed: Observation, own: LookbackRequests?)] = []
        for round in 0..<Self.lookbackRounds {
            for lookbackOn in round % 2 == 0 ? [false, true] : [true, false] {
                if !lookbackOn {
                    off.append(try await extract("look-back off", history: settled, lookback: 0).observed)
                } else if scenario.lookback.contains(.nothingPending) {
                    quiet.append(
                        try await extract(LookbackState.nothingPending.name, history: settled, lookback: Self.lookback))
                }
            }
        }
        let offSeconds = meanSeconds(off)
        figures.append(
            Figure(
                "look-back off, on that history (\(off.count) runs)", values(of: off), target: todayText,
                ratio: Format.ratio(offSeconds / today.seconds)))
        if !quiet.isEmpty {
            figures.append(
                Figure(
                    LookbackState.nothingPending.name + " (\(quiet.count) runs, alternating with those)",
                    values(of: quiet.map(\.observed)), target: todayText,
                    ratio: Format.ratio(meanSeconds(quiet.map(\.observed)) / today.seconds)))
            figures += quiet.enumerated().map { index, run in
                .check(
                    "  read again, run \(index + 1) (check: nothing, as nothing is pending)",
                    passed: run.observed.summary.lateReads == 0, detail: detail(run, against: off[index]))
            }
        }
        let reference = quiet.isEmpty ? off : quiet.map(\.observed)
        let referenceName = quiet.isEmpty ? "look-back off" : "nothing pending"

        if scenario.lookback.contains(.tenthOfChargesPending) {
            let state = LookbackState.tenthOfChargesPending
            var pending = 0
            let run = try await extract(state.name, history: settled, lookback: Self.lookback) { path in
                pending = try LookbackWindowEdits.makeChargesPending(path, window: window, every: 10)
            }
            figures += [
                Figure(
                    state.name + " (\(Format.count(pending)) set `pending`)", values(of: [run.observed]),
                    target: "\(referenceName): \(Format.seconds(meanSeconds(reference)))",
                    ratio: Format.ratio(run.observed.seconds / meanSeconds(reference))),
                .check(
                    "  read again (check: every charge set `pending`)", passed: run.own?.objects["charge"] == pending,
                    detail: detail(run, against: off[off.count - 1])),
            ]
        }
        if scenario.lookback.contains(.asExtracted) {
            let state = LookbackState.asExtracted
            let run = try await extract(state.name, history: filled, lookback: Self.lookback)
            figures += [
                Figure(
                    state.name, values(of: [run.observed]), target: "look-back off: \(Format.seconds(offSeconds))",
                    ratio: Format.ratio(run.observed.seconds / offSeconds)),
                Figure("  read again", detail(run, against: off[off.count - 1])),
            ]
        }
        if scenario.lookback.contains(.leftByTheNightsBefore) {
            // The same window, filled from the world as Stripe served it at the range's start, then set final.
            let state = LookbackState.leftByTheNightsBefore
            var asOfStart = fillOptions
            asOfStart.asOf = Date(timeIntervalSince1970: TimeInterval(range.lowerBound))
            let before = try await SandboxServer.start(asOfStart)
            let transport = try Self.transport(concurrency: 8)
            _ = try await timedExtraction(
                server: before, from: window.lowerBound, to: window.upperBound, now: range.lowerBound,
                into: Self.freshSQLiteHistory(nightsBefore), through: transport,
                options: Extractor.Options(concurrency: 8, settleMargin: 0), limited: false)
            transport.shutdown()
            try await before.shutdown()
            _ = try LookbackWindowEdits.settle(nightsBefore, window: window, now: now)
            let offRun = try await extract("look-back off, " + state.name, history: nightsBefore, lookback: 0)
            let run = try await extract(state.name, history: nightsBefore, lookback: Self.lookback)
            figures += [
                Figure(
                    state.name, values(of: [run.observed]) + " (look-back off: " + values(of: [offRun.observed]) + ")",
                    target: "\(referenceName): \(Format.seconds(meanSeconds(reference)))",
                    ratio: Format.ratio(run.observed.seconds / meanSeconds(reference))),
                Figure(
                    "  moved by hand",
                    "\(run.observed.summary.movedByHand) earlier charges judged again; "
                        + detail(run, against: offRun.observed)),
            ]
        }
        for path in [filled, settled, measured, nightsBefore] {
            for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        return figures
    }

    /// What a run read again of its look-back window, and the requests that took.
    struct LookbackRequests: CustomStringConvertible {
        /// Objects read again, per kind (`late_reads.kind`).
        var objects: [String: Int] = [:]
        /// How many of them the read found changed.
        var changed = 0
        /// Requests by id for an object read again.
        var byID = 0
        /// Requests of a list over a window before the range (the planner's choice where the objects are many).
        var listPages = 0
        /// The plan's queries (`planLateReads`), run again on the history after the run.
        var planSeconds = 0.0

        var description: String {
            let total = objects.values.reduce(0, +)
            let kinds = objects.sorted { $0.key < $1.key }.map { "\(Format.count($0.value)) \($0.key)s" }
            return
                "read again: \(Format.count(total)) objects\(kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))"), "
                + "\(changed) changed, \(byID + listPages) requests (\(byID) by id, \(listPages) pages of window "
                + "lists); plan's queries \(Format.milliseconds(planSeconds))"
        }
    }

    /// The look-back's share of run `observed` on the history at `history`: the objects it read again (its
    /// `late_reads` rows), its requests (by id for one of those objects, or a list page whose `created` window
    /// ends before the range, which no range list or follow-up has), and the time of its plan's queries.
    private func lookbackRequests(
        _ observed: Observation, history: String, range: Range<Int64>, now: Int64
    ) async throws -> LookbackRequests {
        var own = LookbackRequests()
        let run = observed.runID
        for row in try SQLiteCommand.rows(
            history, "SELECT kind, COUNT(*) FROM late_reads WHERE run_id = \(run) GROUP BY kind")
        where row.count == 2 {
            own.objects[row[0]] = Int(row[1]) ?? 0
        }
        own.changed = observed.summary.lateOutcomes
        let ids = Set(
            try SQLiteCommand.run(history, "SELECT object_id FROM late_reads WHERE run_id = \(run)")
                .split(separator: "\n").map(String.init))
        own.byID = observed.timeline.count { path, _ in
            let parts = path.split(separator: "/")
            return parts.count == 3 && ids.contains(String(parts[2]))
        }
        own.listPages = observed.timeline.count { path, query in
            guard Self.listPaths.contains(path),
                let end = query.first(where: { $0.name == "created[lt]" })?.value.flatMap({ Int64($0) })
            else { return false }
            return end <= range.lowerBound
        }
        // The plan's queries again, on the history the run left (idempotent: the run's rows are there already).
        let store = try HistoryStore.open(.sqliteFile(path: history))
        let watch = Stopwatch()
        _ = try await store.gaps.planLateReads(
            run: run, window: (range.lowerBound - Self.lookback)..<range.lowerBound, now: now,
            grace: Self.grace)
        own.planSeconds = watch.seconds
        return own
    }

    /// `+90 /v1/balance_transactions/:id, -2 /v1/balance_transactions`: the endpoints whose requests differ between
    /// two runs, by how many, the largest difference first.
    static func difference(_ counts: [String: Int], _ reference: [String: Int]) -> String {
        Set(counts.keys).union(reference.keys)
            .map {
                (
                    endpoint: $0.replacingOccurrences(of: "GET ", with: ""),
                    by: counts[$0, default: 0] - reference[$0, default: 0]
                )
            }
            .filter { $0.by != 0 }
            .sorted { (abs($0.by), $1.endpoint) > (abs($1.by), $0.endpoint) }
            .map { "\($0.by > 0 ? "+" : "")\($0.by) \($0.endpoint)" }.joined(separator: ", ")
    }

    /// `2026-12-15..12-29`: the days of `window`, UTC.
    static func days(_ window: Range<Int64>) -> String {
        let first = RFC3339.utcString(Date(timeIntervalSince1970: TimeInterval(window.lowerBound))).prefix(10)
        let last = RFC3339.utcString(Date(timeIntervalSince1970: TimeInterval(window.upperBound))).prefix(10)
        return "\(first)..\(last.dropFirst(5))"
    }

    static func perHundred(_ value: Double) -> String { String(format: "%.2f", value) }
}
