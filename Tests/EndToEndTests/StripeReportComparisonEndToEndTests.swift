import ConnectReconTestSupport
import Foundation
import ReconCore
import Sandbox
import TestSupport
import Testing

/// Stripe's own Balance report compared by `run` (docs/RULES.md, "The books close"), end to end against the
/// sandbox's Reporting API: agreement, a line off by one minor unit, a range Stripe had not published yet compared by
/// the next run, a key that may not run reports, and report runs that fail or never finish. None of them fails the
/// run.
@Suite("Stripe's Balance report, compared end to end", .serialized)
struct StripeReportComparisonEndToEndTests {
    static let day: TimeInterval = 86_400
    static let utc = TimeZone(identifier: "UTC")!

    /// The world of 18 days and `hours` from 2026-11-01, with `configure`'s options.
    static func world(
        hours: Int = 13, asOf: Date? = nil, _ configure: (inout SandboxOptions) -> Void = { _ in }
    ) async throws -> SandboxServer {
        var options = SandboxOptions()
        options.charges = 600
        options.days = 18
        options.hours = hours
        options.asOf = asOf
        configure(&options)
        return try await SandboxServer.start(options)
    }

    static func dateText(_ date: Date) -> String { String(RFC3339.utcString(date).prefix(10)) }

    /// Runs the day before the world's moment; returns the exit status, the report folder and the error output.
    static func run(
        _ server: SandboxServer, folder: TemporaryFolder, database: String = "history.sqlite",
        key: String = CLI.testKey, environment: [String: String] = [:]
    ) async throws -> (status: Int32, report: URL, error: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let to = calendar.startOfDay(for: server.world.end)
        let from = to.addingTimeInterval(-day)
        let out = folder.url.appendingPathComponent("reports")
        let result = await CLI.run(
            [
                "run", "--api-base", server.baseURL.absoluteString, "--config", try folder.write("config.yaml", ""),
                "--from", dateText(from), "--to", dateText(to), "--out", out.path, "--db", folder.path(database),
            ], environment: ["STRIPE_API_KEY": key].merging(environment) { $1 })
        return (result.status, out.appendingPathComponent("\(dateText(from))_\(dateText(to))"), result.error)
    }

    /// `balance.csv`'s rows by `currency/balance_type`.
    static func balance(_ report: URL) throws -> [String: [String]] {
        let text = try String(contentsOf: report.appendingPathComponent("balance.csv"), encoding: .utf8)
        var rows: [String: [String]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            rows["\(cells[0])/\(cells[1])"] = cells
        }
        return rows
    }

    /// The `stripe_report_mismatch` rows of `exceptions.csv`, each as its fields.
    static func mismatches(_ report: URL) throws -> [[String]] {
        try String(contentsOf: report.appendingPathComponent("exceptions.csv"), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("stripe_report_mismatch,") }
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test("a published day agrees with Stripe's report in every currency")
    func agrees() async throws {
        let server = try await Self.world()
        let folder = try TemporaryFolder()
        let (status, report, error) = try await Self.run(server, folder: folder)
        #expect(status == 0, "\(error)")
        let rows = try Self.balance(report).filter { $0.key.hasSuffix("/payments") }
        #expect(rows.count >= 4)
        for (key, row) in rows {
            #expect(row[10] == "agrees", "\(key)")
            let currency = try #require(Currency(rawValue: row[0]))
            #expect(row[11] == (try Money(minorUnits: 0, currency: currency).formatted()), "\(key)")
        }
        #expect(try Self.mismatches(report).isEmpty)
        try await server.shutdown()
    }

    @Test("a report line off by one minor unit is a stripe_report_mismatch naming the report, currency and line")
    func offByOneMinorUnit() async throws {
        // Given Stripe's usd ending balance one cent higher, and its jpy charges one yen lower, than the world's
        let server = try await Self.world {
            $0.reportLineOffsets = [
                "balance.summary.1/usd/ending_balance": 1, "balance_change_from_activity.summary.1/jpy/charge": -1,
            ]
        }
        let folder = try TemporaryFolder()
        // When the day runs
        let (status, report, error) = try await Self.run(server, folder: folder)
        // Then the run completes; usd and jpy differ, the others agree
        #expect(status == 0, "\(error)")
        let rows = try Self.balance(report)
        #expect(rows["usd/payments"]?[10] == "differs")
        #expect(rows["usd/payments"]?[11] == "-0.01")
        #expect(rows["jpy/payments"]?[10] == "differs")
        #expect(rows["jpy/payments"]?[11] == "0")
        #expect(rows["gbp/payments"]?[10] == "agrees")
        // And each difference is one finding: object <report type>/<currency>/<range>/<line>, expected Stripe's
        let range = report.lastPathComponent
        let found = try Self.mismatches(report)
        #expect(
            Set(found.map { $0[1] }) == [
                "balance.summary.1/usd/\(range)/ending_balance",
                "balance_change_from_activity.summary.1/jpy/\(range)/charge",
            ])
        let usd = try #require(found.first { $0[1].hasPrefix("balance.summary.1/usd") })
        let expected = try #require(Int64(usd[4].replacingOccurrences(of: ".", with: "")))
        let actual = try #require(Int64(usd[5].replacingOccurrences(of: ".", with: "")))
        #expect(expected - actual == 1)
        try await server.shutdown()
    }

    @Test("a day Stripe has not published is compared by the next run, dated with its range, named out of date")
    func notYetPublishedThenComparedLate() async throws {
        // Given the world as of 07:00 (yesterday not published yet) and as of the next day's 13:00, whose Stripe
        // reports put usd's ending balance a cent off
        let later = try await Self.world { $0.reportLineOffsets = ["balance.summary.1/usd/ending_balance": 1] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.utc
        let today = calendar.startOfDay(for: later.world.end)
        let earlier = try await Self.world(asOf: today.addingTimeInterval(-Self.day + 7 * 3_600))
        let folder = try TemporaryFolder()

        // When the first night runs, then the next
        let first = try await Self.run(earlier, folder: folder)
        #expect(first.status == 0, "\(first.error)")
        #expect(try Self.balance(first.report)["usd/payments"]?[10] == "not_yet_published")
        #expect(try Self.mismatches(first.report).isEmpty)
        let second = try await Self.run(later, folder: folder)
        #expect(second.status == 0, "\(second.error)")

        // Then the second run's findings hold the first range's mismatch, dated with it, and its own
        let firstRange = first.report.lastPathComponent
        let found = try Self.mismatches(second.report).map { $0[1] }
        #expect(found.contains("balance.summary.1/usd/\(firstRange)/ending_balance"), "\(found)")
        #expect(found.contains("balance.summary.1/usd/\(second.report.lastPathComponent)/ending_balance"))
        // And the history names the first range's report out of date
        let history = await CLI.run(["history", "--db", folder.path("history.sqlite"), "--json"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(history.output.utf8)) as? [[String: Any]])
        let details = try #require(runs.first?["details"] as? [String: Any])
        let outOfDate = try #require(details["out_of_date_ranges"] as? [[String: String]])
        #expect(outOfDate.contains { $0["report_folder"] == firstRange }, "\(outOfDate)")
        // And an offline reconcile of the first range now shows Stripe's report compared
        let reconcile = await CLI.run([
            "reconcile", "--config", try folder.write("config.yaml", ""), "--from", String(firstRange.prefix(10)),
            "--to", String(firstRange.suffix(10)), "--out", folder.url.appendingPathComponent("again").path, "--db",
            folder.path("history.sqlite"),
        ])
        #expect(reconcile.status == 0, "\(reconcile.error)")
        let again = folder.url.appendingPathComponent("again").appendingPathComponent(firstRange)
        #expect(try Self.balance(again)["usd/payments"]?[10] == "differs")
        #expect(try Self.balance(again)["gbp/payments"]?[10] == "agrees")
        try await earlier.shutdown()
        try await later.shutdown()
    }

    @Test("a key that may not run reports gets not_permitted, and the run exits 0")
    func notPermitted() async throws {
        let server = try await Self.world { $0.restrictedKeyForbiddenResources = ["reporting"] }
        let folder = try TemporaryFolder()
        let (status, report, error) = try await Self.run(server, folder: folder, key: "rk_test_51H8abcdefGHIJKLmnop")
        #expect(status == 0, "\(error)")
        let rows = try Self.balance(report)
        #expect(rows["usd/payments"]?[10] == "not_permitted")
        #expect(rows["usd/issuing"]?[10] == "not_compared")
        try await server.shutdown()
    }

    @Test("a key that may not read the balance: the run completes, no balance is anchored, none closes")
    func balanceNotReadable() async throws {
        let server = try await Self.world { $0.restrictedKeyForbiddenResources = ["balance"] }
        let folder = try TemporaryFolder()
        let (status, report, error) = try await Self.run(server, folder: folder, key: "rk_test_51H8abcdefGHIJKLmnop")
        #expect(status == 0, "\(error)")
        #expect(error.contains("Stripe's balance could not be read"))
        let rows = try Self.balance(report)
        let usd = try #require(rows["usd/payments"])
        #expect(usd[2] == "" && usd[5] == "" && usd[7] == "", "no starting, ending or Stripe balance")
        #expect(usd[3] != "", "the activity is still the range's")
        #expect(usd[10] == "not_compared", "no reports are asked for without the balance's currencies")
    }

    @Test(
        "report runs that fail or never finish leave the comparison not made, and the run completes",
        arguments: [false, true])
    func reportRunsThatFailOrNeverFinish(neverFinish: Bool) async throws {
        let server = try await Self.world {
            if neverFinish { $0.reportRunsNeverFinish = true } else { $0.reportRunsFail = true }
        }
        let folder = try TemporaryFolder()
        let (status, report, error) = try await Self.run(
            server, folder: folder, environment: ["CONNECT_RECON_RECONCILE_STRIPE_REPORT_WAIT_SECONDS": "2"])
        #expect(status == 0, "\(error)")
        let rows = try Self.balance(report)
        #expect(rows["usd/payments"]?[10] == "not_compared")
        #expect(rows["usd/payments"]?[9] == "", "no earlier snapshot: continuity not compared either")
        #expect(error.contains("could not be compared"), "the log says why")
        try await server.shutdown()
    }
}
