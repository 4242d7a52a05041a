import ArgumentParser
import Foundation
import History
import ReconCore

/// `connect-recon history`: the past runs recorded in the history database.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List past runs: range, status, counts and totals per currency.",
        discussion: "Reads the history database only; it never creates one and needs no key.")

    @OptionGroup var common: CommonOptions

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "How many runs to show, newest first.")
    var limit: Int = 30

    func validate() throws {
        guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 100000.") }
    }

    func run() async throws {
        let context = CommandContext.current
        let configuration = try ConfigurationLoader(environment: context.environment, flags: common.settingFlags)
            .load(explicitFile: common.config)
        guard try HistoryStore.exists(configuration.history) else {
            throw UsageProblem(
                "There is no history database at '\(configuration.history)': no run has been recorded there. "
                    + "Point --db at the right file or database.")
        }
        let runs = try HistoryStore.open(configuration.history).runs.list(limit: limit)
        context.console.writeOutput(json ? Self.json(runs) : Self.table(runs))
    }

    static func json(_ runs: [RunRecord]) -> String {
        let objects: [[String: Any]] = runs.map { run in
            var object: [String: Any] = [
                "id": run.id, "command": run.command, "from": RFC3339.string(unixSeconds: run.rangeFrom, in: utc),
                "to": RFC3339.string(unixSeconds: run.rangeTo, in: utc), "status": run.status.rawValue,
                "mode": run.mode.rawValue, "started_at": RFC3339.string(unixSeconds: run.startedAt, in: utc),
                "tool_version": run.toolVersion, "stripe_version": run.stripeVersion,
            ]
            if let finished = run.finishedAt { object["finished_at"] = RFC3339.string(unixSeconds: finished, in: utc) }
            if let message = run.message { object["message"] = message }
            if let resumed = run.resumedFrom { object["resumed_from"] = resumed }
            if let details = run.details.flatMap({ try? JSONSerialization.jsonObject(with: Data($0.utf8)) }) {
                object["details"] = details
            }
            return object
        }
        guard let data = try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
        else { return "[]\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func table(_ runs: [RunRecord]) -> String {
        guard !runs.isEmpty else { return "No runs recorded yet.\n" }
        let header = ["run", "command", "range", "status", "started (UTC)", "seconds", "objects", "findings", "totals"]
        var rows: [[String]] = [header]
        var notes: [String] = []
        for run in runs {
            let details =
                run.details.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
            for stale in details["out_of_date_ranges"] as? [[String: String]] ?? [] {
                guard let folder = stale["report_folder"], let action = stale["action"] else { continue }
                notes.append("run \(run.id) found a late outcome: the report \(folder) is out of date; \(action)")
            }
            let objects = (details["objects"] as? [String: Int]).map { String($0.values.reduce(0, +)) } ?? ""
            let findings: String = {
                guard let new = details["findings_new"] as? Int, let open = details["findings_open"] as? Int else {
                    return ""
                }
                return "\(new) new, \(open) open, \((details["findings_resolved"] as? Int) ?? 0) resolved"
            }()
            let totals = (details["totals"] as? [String: [String: Any]] ?? [:]).sorted { $0.key < $1.key }.compactMap {
                currency, values -> String? in
                guard let code = Currency(rawValue: currency),
                    let fee = (values["destination_platform_fee"] as? NSNumber)?.int64Value,
                    let text = try? Money(minorUnits: fee, currency: code).formatted()
                else { return nil }
                return "\(currency) DPF \(text)"
            }.joined(separator: "; ")
            let seconds = (details["seconds"] as? Double).map { String(format: "%.1f", $0) } ?? ""
            let status =
                run.status == .failed ? "failed: " + String((run.message ?? "").prefix(60)) : run.status.rawValue
            rows.append([
                String(run.id), run.command, range(run), status,
                String(RFC3339.string(unixSeconds: run.startedAt, in: utc).prefix(19)).replacingOccurrences(
                    of: "T", with: " "),
                seconds, objects, findings, totals,
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let table =
            rows.map { row in
                row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
            }.joined(separator: "\n") + "\n"
        return notes.isEmpty ? table : table + "\n" + notes.joined(separator: "\n") + "\n"
    }

    private static func range(_ run: RunRecord) -> String {
        let zone = TimeZone(identifier: run.timeZone) ?? utc
        guard
            let range = try? ReportingRange(
                from: Date(timeIntervalSince1970: TimeInterval(run.rangeFrom)),
                to: Date(timeIntervalSince1970: TimeInterval(run.rangeTo)), timeZone: zone)
        else { return "\(run.rangeFrom)–\(run.rangeTo)" }
        return range.folderName
    }

    private static let utc = TimeZone(secondsFromGMT: 0) ?? .current
}
