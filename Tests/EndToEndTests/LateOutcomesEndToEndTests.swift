import ConnectReconTestSupport
import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import Testing

/// Late outcomes end to end (docs/EXTRACTION.md, docs/RULES.md, §5), with the real `connect-recon` binary and its real
/// clock: the nightly runs of two days against the sandbox's world as of an earlier moment, then the next night's run
/// against the same world as of a day later, on one history. The next night's report holds each outcome that arrived in
/// between, marked `new`, and names the earlier reports as out of date; an offline `reconcile` of the earlier day then
/// matches the ground truth as of the later moment.
@Suite("Late outcomes, end to end", .serialized)
struct LateOutcomesEndToEndTests {
    static let day: TimeInterval = 86_400

    static func dateText(_ date: Date) -> String { String(RFC3339.utcString(date).prefix(10)) }

    static func rows(_ folder: URL, _ file: String) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            .split(separator: "\n").dropFirst().map(String.init)
    }

    /// The `created` of an object the world serves.
    static func created(_ world: SandboxWorld, _ id: String) throws -> Date {
        let data = try #require(world.renderedObject(id: id), "the world serves \(id)")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let seconds = try #require(object["created"] as? Int)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    @Test("the next night reports what arrived since, names the earlier reports out of date; reconcile then agrees")
    func twoMoments() async throws {
        guard Executable.isBuilt else {
            Issue.record("connect-recon was not built next to the tests at \(Executable.url.path)")
            return
        }
        // Given one seeded world whose end is two days before today (the binary's clock is the real one), served
        // as of a day before its end and as of its end
        let servers = try await TwoMoments.start(charges: 1_500, days: 18)
        let (later, earlier, calendar) = (servers.later, servers.earlier, servers.calendar)
        let end = later.world.end
        let moment = later.world.earlierMoment
        let dayD = moment.addingTimeInterval(-Self.day)
        let dayBefore = dayD.addingTimeInterval(-Self.day)
        #expect(earlier.world.end == moment)

        let world = later.world
        let skipped = try #require(world.ids(for: .lateSkippedTransfer).first)
        let failedRefund = try #require(world.ids(for: .lateFailedRefund).first)
        let won = try #require(world.ids(for: .lateDisputeWon).first)
        let lost = try #require(world.ids(for: .lateDisputeLost).first)
        let failedPayout = try #require(world.ids(for: .latePayoutFailed).first)
        for id in [skipped, failedRefund, won, lost] {
            #expect((dayD..<moment).contains(try Self.created(world, id)), "\(id) is of day D")
        }
        #expect((dayBefore..<dayD).contains(try Self.created(world, failedPayout)), "the payout is of the day before")

        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", "")
        let out = folder.url.appendingPathComponent("reports")
        let database = folder.url.appendingPathComponent("history.sqlite").path
        let environment = ["STRIPE_API_KEY": CLI.testKey]
        func run(_ command: String, _ from: Date, _ to: Date, _ server: SandboxServer?) async throws -> URL {
            var arguments = [
                command, "--config", config, "--from", Self.dateText(from), "--to", Self.dateText(to), "--out",
                out.path, "--db", database,
            ]
            if let server { arguments += ["--api-base", server.baseURL.absoluteString] }
            let result = try await Executable.run(arguments, environment: environment, logs: folder)
            #expect(result.status == 0, "\(command) \(Self.dateText(from)): \(result.error)")
            return out.appendingPathComponent("\(Self.dateText(from))_\(Self.dateText(to))")
        }

        // When the nights of the day before D and of D run against the world as of the earlier moment
        _ = try await run("run", dayBefore, dayD, earlier)
        let nightD = try await run("run", dayD, moment, earlier)

        // Then D's report has the won dispute as unreversed (it needed a response then), and none of the others
        #expect(try Self.rows(nightD, "unreversed_disputes.csv").contains { $0.hasPrefix(won + ",") })
        #expect(try !Self.rows(nightD, "unreversed_disputes.csv").contains { $0.hasPrefix(lost + ",") })
        #expect(try !Self.rows(nightD, "skipped_transfers.csv").contains { $0.hasPrefix(skipped + ",") })
        #expect(try !Self.rows(nightD, "exceptions.csv").contains { $0.contains(failedRefund) })

        // When the next night runs against the world as of its end
        let next = try await run("run", moment, end, later)

        // Then its report holds each late outcome, new, with its own creation time on D (the payout's the day
        // before)
        let nextSkipped = try Self.rows(next, "skipped_transfers.csv")
        let skippedRow = try #require(nextSkipped.first { $0.hasPrefix(skipped + ",") }, "\(nextSkipped)")
        #expect(skippedRow.hasSuffix(",new"))
        #expect(skippedRow.contains("," + Self.dateText(dayD) + "T"))
        let exceptions = try Self.rows(next, "exceptions.csv")
        let refundRow = try #require(
            exceptions.first { $0.hasPrefix("failed_refund_not_retransferred,\(failedRefund),") }, "\(exceptions)")
        #expect(refundRow.hasSuffix(",new"))
        let payoutRow = try #require(
            exceptions.first { $0.hasPrefix("payout_failed,\(failedPayout),") }, "\(exceptions)")
        #expect(payoutRow.hasSuffix(",new"))
        let disputes = try Self.rows(next, "unreversed_disputes.csv")
        let lostRow = try #require(disputes.first { $0.hasPrefix(lost + ",") }, "\(disputes)")
        #expect(lostRow.contains(",lost,"))
        #expect(lostRow.hasSuffix(",new"))
        // and the won dispute is no longer unreversed: its finding is resolved by this run
        #expect(!disputes.contains { $0.hasPrefix(won + ",") })
        let resolved = try #require(
            try SQLiteShell.run(
                database,
                "SELECT status FROM findings_status WHERE kind = 'unreversed_dispute' AND object_id = '\(won)'",
                readOnly: true))
        #expect(resolved.trimmingCharacters(in: .whitespacesAndNewlines) == "resolved")
        // and platform_fees stays one row per charge of its own day
        let fees = try Self.rows(next, "platform_fees.csv")
        #expect(!fees.isEmpty)
        #expect(fees.allSatisfy { $0.split(separator: ",")[1].hasPrefix(Self.dateText(moment)) })
        // and the history names the earlier reports it put out of date, D's and the day before's
        let history = try await Executable.run(
            ["history", "--db", database, "--json"], environment: environment, logs: folder)
        #expect(history.status == 0, "\(history.error)")
        let runs = try #require(
            try JSONSerialization.jsonObject(with: Data(history.output.utf8)) as? [[String: Any]])
        let details = try #require(runs.first?["details"] as? [String: Any])
        let outOfDate = try #require(details["out_of_date_ranges"] as? [[String: String]])
        #expect(
            Set(outOfDate.compactMap { $0["report_folder"] })
                == [
                    "\(Self.dateText(dayD))_\(Self.dateText(moment))",
                    "\(Self.dateText(dayBefore))_\(Self.dateText(dayD))",
                ])
        #expect(outOfDate.contains { $0["action"] == "re-run \(Self.dateText(dayD)) to update its report" })
        #expect((details["late_outcomes"] as? Int ?? 0) >= 5)
        let listing = try await Executable.run(["history", "--db", database], environment: environment, logs: folder)
        #expect(
            listing.output.contains(
                "the report \(Self.dateText(dayD))_\(Self.dateText(moment)) is out of date; re-run \(Self.dateText(dayD))"
            ),
            "\(listing.output)")

        // When D is reconciled again offline, the sandbox gone
        try await earlier.shutdown()
        try await later.shutdown()
        let again = try await run("reconcile", dayD, moment, nil)

        // Then D's report is the ground truth of D as of the later moment
        let range = try ReportingRange(from: dayD, to: moment, timeZone: calendar.timeZone)
        let truth = world.groundTruth(for: range, asOf: Date(), skippedTransferGrace: 3_600)
        #expect(truth.skippedTransfers.contains { $0.chargeID == skipped })
        try CommandLineAgainstGroundTruthTests.expectFiles(in: again, match: truth)
    }
}
