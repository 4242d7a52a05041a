import ConnectReconTestSupport
import Foundation
import Testing

@testable import History
@testable import ReconCLI

@Suite("Command line")
struct CommandLineTests {
    @Test("--help lists the six commands")
    func helpListsCommands() async {
        let result = await CLI.run(["--help"])
        #expect(result.status == 0)
        for command in ["run", "extract", "reconcile", "history", "demo", "sandbox"] {
            #expect(result.output.contains("\n  \(command) "), "lists \(command)")
        }
    }

    @Test(
        "every command has help a finance engineer can read",
        arguments: ["run", "extract", "reconcile", "history", "demo", "sandbox"])
    func commandHelp(command: String) async {
        let result = await CLI.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE: connect-recon \(command)"))
        #expect(result.output.count > 200)
    }

    @Test("run and reconcile --help name every report file", arguments: ["run", "reconcile"])
    func helpNamesTheReportFiles(command: String) async {
        let result = await CLI.run([command, "--help"])
        // The help text wraps lines: compare it as one line of words
        let text = result.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for file in [
            "platform_fees.csv", "skipped_transfers.csv", "unreversed_disputes.csv", "exceptions.csv", "ledger.csv",
            "summary.csv", "connected_accounts.csv", "payouts.csv", "payout_transactions.csv",
            "reconciliation_<from>_<to>.xlsx",
        ] {
            #expect(text.contains(file), "\(command) --help names \(file)")
        }
    }

    @Test("--version names the tool and its C libraries")
    func version() async {
        let result = await CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("connect-recon 0.1.0 (libcurl 7."))
        #expect(result.output.contains("libxlsxwriter 1."))
        #expect(result.output.contains("SQLite 3."))
        #expect(result.output.contains("libpq 1"))
    }

    /// Options that point a run at a port where nothing listens, with no retries and a temporary database.
    static func deadEnd(_ folder: TemporaryFolder) -> [String] {
        [
            "--api-base", "http://127.0.0.1:1", "--db", folder.url.appendingPathComponent("h.sqlite").path, "--out",
            folder.url.appendingPathComponent("reports").path,
        ]
    }

    static let noRetries = ["CONNECT_RECON_API_MAX_RETRIES": "0"]

    @Test("a run that cannot reach the API exits 1 naming the endpoint, and is recorded as failed")
    func unreachableAPI() async throws {
        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", "")
        let result = await CLI.run(
            ["run", "--config", config, "--from", "2026-11-20", "--to", "2026-11-21"] + Self.deadEnd(folder),
            environment: ["STRIPE_API_KEY": CLI.testKey].merging(Self.noRetries) { $1 })
        #expect(result.status == 1)
        #expect(result.error.contains("GET /v1/"))
        #expect(result.error.contains("got no complete response after 1 attempt"))
        #expect(result.error.contains("range [2026-11-20T00:00:00Z, 2026-11-21T00:00:00Z)"))
        #expect(result.error.contains("test mode (sk_test_…)"))
        #expect(!result.error.contains(CLI.testKey))
        #expect(!result.output.contains(CLI.testKey))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("reports").path))
        let store = try HistoryStore.open(path: folder.url.appendingPathComponent("h.sqlite").path)
        #expect(try store.runs.list().first?.status == .failed)
        #expect(try store.runs.list().first?.message?.contains("GET /v1/") == true)
    }

    @Test("reconcile needs no key")
    func reconcileNeedsNoKey() async throws {
        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", "")
        let database = folder.url.appendingPathComponent("h.sqlite").path
        _ = try HistoryStore.open(path: database)
        let result = await CLI.run(
            ["reconcile", "--config", config, "--db", database, "--from", "2026-11-20", "--to", "2026-11-21"])
        #expect(result.status == 2)
        #expect(result.error.contains("no completed extraction"))
        #expect(!result.error.contains("STRIPE_API_KEY"))
    }

    @Test("the key is read from a key file, and a file others can read draws a warning")
    func keyFile() async throws {
        let folder = try TemporaryFolder()
        let keyFile = try folder.write("stripe.key", CLI.liveKey + "\n", permissions: 0o644)
        let config = try folder.write("config.yaml", "api:\n  key_file: \(keyFile)\n")
        let isolated = Self.deadEnd(folder)
        let result = await CLI.run(
            ["run", "--config", config, "--from", "2026-11-20", "--to", "2026-11-21"] + isolated,
            environment: Self.noRetries)
        #expect(result.status == 1)
        #expect(result.error.contains("live mode (rk_live_…)"))
        #expect(result.error.contains("can be read by other users"))
        #expect(result.error.contains("chmod 600"))
        #expect(!result.error.contains(CLI.liveKey))

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile)
        let quiet = await CLI.run(
            ["run", "--config", config, "--from", "2026-11-20", "--to", "2026-11-21"] + isolated,
            environment: Self.noRetries)
        #expect(!quiet.error.contains("can be read by other users"))
    }

    @Test("STRIPE_API_KEY wins over the key file")
    func environmentKeyWins() async throws {
        let folder = try TemporaryFolder()
        let keyFile = try folder.write("stripe.key", CLI.liveKey)
        let config = try folder.write("config.yaml", "api:\n  key_file: \(keyFile)\n")
        let result = await CLI.run(
            ["run", "--config", config, "--from", "2026-11-20", "--to", "2026-11-21"] + Self.deadEnd(folder),
            environment: ["STRIPE_API_KEY": CLI.testKey].merging(Self.noRetries) { $1 })
        #expect(result.error.contains("test mode"))
    }

    @Test("nightly run without dates takes the previous day in the configured time zone")
    func nightlyRangeInTimeZone() async throws {
        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", "range:\n  time_zone: America/New_York\n")
        let result = await CLI.run(
            ["run", "--config", config] + Self.deadEnd(folder),
            environment: ["STRIPE_API_KEY": CLI.testKey].merging(Self.noRetries) { $1 })
        // 2026-11-21T01:30Z is 2026-11-20 20:30 in New York, so the previous day there is 19 November.
        #expect(result.error.contains("range [2026-11-19T00:00:00-05:00, 2026-11-20T00:00:00-05:00)"))
        #expect(result.error.contains("time zone America/New_York"))
    }

    @Test(
        "demo --today that is not a day written YYYY-MM-DD exits 2 and names the form",
        arguments: ["28/11/2026", "2026-13-01", "2026-11-31", "2026-11-28T00:00:00Z", "yesterday"])
    func demoTodayMustBeADay(text: String) async throws {
        let folder = try TemporaryFolder()
        let result = await CLI.run(["demo", "--today", text, "--out", folder.url.path])
        #expect(result.status == 2)
        #expect(result.error.contains("--today must be a day written YYYY-MM-DD"))
        #expect(folder.contents().isEmpty, "nothing written")
    }

    @Test("demo --today names the start of that day in UTC")
    func demoTodayIsTheDaysStart() {
        #expect(DemoCommand.day("2026-11-28") == Date(timeIntervalSince1970: 1_795_824_000))
        #expect(DemoCommand.day("2024-02-29") != nil)
        #expect(DemoCommand.day("2026-02-29") == nil)
    }
}
