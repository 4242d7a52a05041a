import ConnectReconTestSupport
import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import StripeAPI
import Testing

/// Money moved by hand, across time (docs/RULES.md), end to end with the real `connect-recon` binary: the nights of
/// the day before D and of D against the sandbox's world as of an earlier moment, then the next night's run against
/// the same world as of a day later, on one history, SQLite or PostgreSQL. During that last day the platform reverses
/// a refund's share by hand (exactly, and 2.00 short), makes a transfer group's second transfer, recovers a group's
/// refund and a dispute under review by hand, and pays the seller of a disputed group charge. The next night judges
/// D's charges again: resolved, still open with the new `actual`, or new; it names D's report out of date; an offline
/// `reconcile` of D then writes the ground truth of D as of the later moment.
@Suite("Money moved by hand, end to end", .serialized)
struct MovedByHandEndToEndTests {
    static let day: TimeInterval = 86_400

    @Test("the next night judges D's charges again on SQLite")
    func onSQLite() async throws { try await twoNights(.sqlite) }

    @Test(
        "the next night judges D's charges again on PostgreSQL",
        .postgreSQLServer)
    func onPostgreSQL() async throws { try await twoNights(.postgreSQL) }

    /// The rows of a report file, each by column name.
    static func rows(_ folder: URL, _ file: String) throws -> [[String: String]] {
        let records = try CSVReader.records(try Data(contentsOf: folder.appendingPathComponent(file)))
        guard let header = records.first else { return [] }
        return records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// A member of an object the world serves.
    static func member(_ world: SandboxWorld, _ id: String, _ name: String) throws -> Any? {
        let data = try #require(world.renderedObject(id: id), "the world serves \(id)")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return object[name]
    }

    func twoNights(_ backend: TestHistoryBackend) async throws {
        guard Executable.isBuilt else {
            Issue.record("connect-recon was not built next to the tests at \(Executable.url.path)")
            return
        }
        // Given one seeded world whose end is two days before today, served as of a day before its end and as of
        // its end
        let servers = try await TwoMoments.start(charges: 1_500, days: 18) { $0.movesByHand = true }
        let (later, earlier, calendar) = (servers.later, servers.earlier, servers.calendar)
        let world = later.world
        let (end, moment) = (world.end, world.earlierMoment)
        let dayD = moment.addingTimeInterval(-Self.day)
        let dayBefore = dayD.addingTimeInterval(-Self.day)

        func charge(_ scenario: SandboxScenario) throws -> String {
            try #require(world.ids(for: scenario).first, "\(scenario.rawValue) is in the world")
        }
        let exact = try charge(.lateRefundRecoveredByHand)
        let short = try charge(.lateRefundRecoveredShort)
        let groupCharge = try charge(.lateGroupTransfer)
        let refundedGroupCharge = try charge(.lateGroupRefundRecovered)
        let disputedGroupCharge = try charge(.lateGroupDisputedThenPaid)
        let disputedCharge = try charge(.lateDisputeRecoveredByHand)
        let group = try #require(try Self.member(world, groupCharge, "transfer_group") as? String)
        let refundedGroup = try #require(try Self.member(world, refundedGroupCharge, "transfer_group") as? String)

        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", "")
        let out = folder.url.appendingPathComponent("reports")
        let database = try backend.newHistory(in: folder)
        let environment = ["STRIPE_API_KEY": CLI.testKey]
        func dateText(_ date: Date) -> String { String(RFC3339.utcString(date).prefix(10)) }
        func run(_ command: String, _ from: Date, _ to: Date, _ server: SandboxServer?) async throws -> URL {
            var arguments = [
                command, "--config", config, "--from", dateText(from), "--to", dateText(to), "--out", out.path,
                "--db", database,
            ]
            if let server { arguments += ["--api-base", server.baseURL.absoluteString] }
            let result = try await Executable.run(arguments, environment: environment, logs: folder)
            #expect(result.status == 0, "\(command) \(dateText(from)): \(result.error)")
            return out.appendingPathComponent("\(dateText(from))_\(dateText(to))")
        }
        func query(_ sql: String) throws -> String {
            try TestHistoryBackend.query(database, sql).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func status(_ kind: String, _ object: String) throws -> String {
            try query("SELECT status FROM findings_status WHERE kind = '\(kind)' AND object_id = '\(object)'")
        }

        // When the nights of the day before D and of D run against the world as of the earlier moment
        _ = try await run("run", dayBefore, dayD, earlier)
        let nightD = try await run("run", dayD, moment, earlier)
        let recoveredDispute = try query("SELECT id FROM disputes WHERE charge_id = '\(disputedCharge)'")
        let paidDispute = try query("SELECT id FROM disputes WHERE charge_id = '\(disputedGroupCharge)'")
        #expect(recoveredDispute.hasPrefix("dp_") && paidDispute.hasPrefix("dp_"))

        // Then D's report holds the refunds not recovered yet, new, and the dispute not recovered yet
        var exceptions = try Self.rows(nightD, "exceptions.csv").filter { $0["kind"] == "refund_not_recovered" }
        for (object, expected) in [(exact, "40.00"), (short, "40.00"), (refundedGroup, "34.00")] {
            let row = try #require(exceptions.first { $0["object_id"] == object }, "\(object) on D: \(exceptions)")
            #expect(row["expected"] == expected && row["actual"] == "0.00" && row["status"] == "new", "\(row)")
        }
        var disputes = try Self.rows(nightD, "unreversed_disputes.csv")
        #expect(disputes.contains { $0["dispute_id"] == recoveredDispute && $0["status"] == "new" })
        // and no unreversed dispute for the group charge nothing was transferred for yet
        #expect(!disputes.contains { $0["dispute_id"] == paidDispute })
        // and the group's row with its first transfer only
        let groupRowD = try #require(
            try Self.rows(nightD, "transfer_groups.csv").first { $0["transfer_group"] == group })
        #expect(groupRowD["transferred"] == "60.00" && groupRowD["platform_take"] == "40.00", "\(groupRowD)")

        // When the next night runs against the world as of its end
        let next = try await run("run", moment, end, later)

        // Then the refund recovered exactly, the group's refund recovered and the dispute recovered are resolved
        exceptions = try Self.rows(next, "exceptions.csv").filter { $0["kind"] == "refund_not_recovered" }
        #expect(!exceptions.contains { $0["object_id"] == exact || $0["object_id"] == refundedGroup }, "\(exceptions)")
        disputes = try Self.rows(next, "unreversed_disputes.csv")
        #expect(!disputes.contains { $0["dispute_id"] == recoveredDispute })
        #expect(try status("refund_not_recovered", exact) == "resolved")
        #expect(try status("refund_not_recovered", refundedGroup) == "resolved")
        #expect(try status("unreversed_dispute", recoveredDispute) == "resolved")
        // and the refund recovered 2.00 short stays open, with what was given back now
        let shortRow = try #require(exceptions.first { $0["object_id"] == short }, "\(exceptions)")
        #expect(shortRow["expected"] == "40.00" && shortRow["actual"] == "38.00" && shortRow["status"] == "open")
        // and the dispute of the group whose seller was paid since is new, dated on D
        let paidRow = try #require(disputes.first { $0["dispute_id"] == paidDispute }, "\(disputes)")
        #expect(paidRow["status"] == "new" && paidRow["recoverable"] == "50.00" && paidRow["unrecovered"] == "50.00")
        #expect(paidRow["created_utc"]?.hasPrefix(dateText(dayD)) == true, "\(paidRow)")
        // and the history lists what it resolved and names D's report out of date
        let history = try await Executable.run(
            ["history", "--db", database, "--json"], environment: environment, logs: folder)
        #expect(history.status == 0, "\(history.error)")
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(history.output.utf8)) as? [[String: Any]])
        let details = try #require(runs.first?["details"] as? [String: Any])
        let resolved = try #require(details["resolved_findings"] as? [[String: String]])
        for (kind, object) in [
            ("refund_not_recovered", exact), ("refund_not_recovered", refundedGroup),
            ("unreversed_dispute", recoveredDispute),
        ] {
            #expect(resolved.contains { $0["kind"] == kind && $0["object_id"] == object }, "\(kind) \(object)")
        }
        let outOfDate = try #require(details["out_of_date_ranges"] as? [[String: String]])
        #expect(outOfDate.contains { $0["report_folder"] == "\(dateText(dayD))_\(dateText(moment))" }, "\(outOfDate)")

        // When D is reconciled again offline, the sandbox gone
        try await earlier.shutdown()
        try await later.shutdown()
        let again = try await run("reconcile", dayD, moment, nil)

        // Then D's group row holds both transfers, and D's report is the ground truth of D as of the later moment
        let groupRow = try #require(try Self.rows(again, "transfer_groups.csv").first { $0["transfer_group"] == group })
        #expect(groupRow["transferred"] == "85.00" && groupRow["platform_take"] == "15.00", "\(groupRow)")
        let range = try ReportingRange(from: dayD, to: moment, timeZone: calendar.timeZone)
        let truth = world.groundTruth(for: range, asOf: Date(), skippedTransferGrace: 3_600)
        try CommandLineAgainstGroundTruthTests.expectFiles(in: again, match: truth)
    }
}
