import ConnectReconTestSupport
import Foundation
import Testing

@testable import ReconCLI

/// Every bad input of the command line and configuration exits 2 with a message that says what is wrong and what to do, before any
/// network or disk write.
@Suite("Bad input exits 2")
struct BadInputTests {
    /// Runs `run` with a valid key and a clean configuration, plus `extra` arguments and environment, in a
    /// temporary folder that must stay empty.
    func runExpectingBadInput(
        _ arguments: [String], environment: [String: String] = ["STRIPE_API_KEY": CLI.testKey],
        command: String = "run", configText: String = "", mentions expected: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", configText)
        let out = folder.url.appendingPathComponent("reports").path
        let db = folder.url.appendingPathComponent("history.sqlite").path
        let result = await CLI.run(
            [command, "--config", config, "--out", out, "--db", db] + arguments, environment: environment)
        #expect(result.status == 2, "exit status", sourceLocation: sourceLocation)
        for phrase in expected {
            #expect(
                result.error.contains(phrase), "message mentions '\(phrase)': \(result.error)",
                sourceLocation: sourceLocation)
        }
        #expect(folder.contents() == ["config.yaml"], "nothing written", sourceLocation: sourceLocation)
        #expect(!result.error.contains(CLI.testKey), "the key is never printed", sourceLocation: sourceLocation)
    }

    // MARK: - Dates and ranges

    @Test("--from after or equal to --to")
    func fromNotBeforeTo() async throws {
        try await runExpectingBadInput(
            ["--from", "2026-11-20", "--to", "2026-11-19"], mentions: ["must be before --to"])
        try await runExpectingBadInput(
            ["--from", "2026-11-20", "--to", "2026-11-20"], mentions: ["must be before --to"])
    }

    @Test("a malformed date")
    func malformedDate() async throws {
        try await runExpectingBadInput(
            ["--from", "20/11/2026", "--to", "2026-11-21"],
            mentions: ["--from '20/11/2026' is not a date", "YYYY-MM-DD"])
    }

    @Test("an impossible date")
    func impossibleDate() async throws {
        try await runExpectingBadInput(
            ["--from", "2026-02-30", "--to", "2026-03-02"], mentions: ["'2026-02-30' is not a real calendar date"])
    }

    @Test("an unknown time zone in the file, and in the environment")
    func unknownTimeZone() async throws {
        try await runExpectingBadInput(
            [], configText: "range:\n  time_zone: Mars/Olympus\n",
            mentions: ["range.time_zone", "config.yaml:2", "IANA"])
        try await runExpectingBadInput(
            [], environment: ["STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_RANGE_TIME_ZONE": "Europe/Berlinn"],
            mentions: ["range.time_zone", "CONNECT_RECON_RANGE_TIME_ZONE"])
    }

    @Test(
        "a look-back that is not a whole number of days from 0 to 366, in the file or the environment",
        arguments: ["-1", "367", "two weeks", "14.5"])
    func badLookback(value: String) async throws {
        try await runExpectingBadInput(
            [], configText: "reconcile:\n  lookback_days: \(value)\n",
            mentions: ["reconcile.lookback_days", "config.yaml:2", "0 to 366"])
        try await runExpectingBadInput(
            [], environment: ["STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_RECONCILE_LOOKBACK_DAYS": value],
            mentions: ["reconcile.lookback_days", "CONNECT_RECON_RECONCILE_LOOKBACK_DAYS"])
        try await runExpectingBadInput(
            [], environment: ["CONNECT_RECON_RECONCILE_LOOKBACK_DAYS": value], command: "reconcile",
            mentions: ["reconcile.lookback_days"])
    }

    @Test(
        "reconcile.compare_with_stripe_reports that is not true or false, and a report wait out of range",
        arguments: ["maybe", "2"])
    func badStripeReportSettings(value: String) async throws {
        try await runExpectingBadInput(
            [], configText: "reconcile:\n  compare_with_stripe_reports: \(value)\n",
            mentions: ["reconcile.compare_with_stripe_reports", "config.yaml:2", "true or false"])
        try await runExpectingBadInput(
            [],
            environment: ["STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_RECONCILE_COMPARE_WITH_STRIPE_REPORTS": value],
            mentions: ["CONNECT_RECON_RECONCILE_COMPARE_WITH_STRIPE_REPORTS"])
        try await runExpectingBadInput(
            [], configText: "reconcile:\n  stripe_report_wait_seconds: 0\n",
            mentions: ["reconcile.stripe_report_wait_seconds", "1 to 3600"])
    }

    @Test("reconcile.debit_link_keys that names no key, or a key with a space in it")
    func badDebitLinkKeys() async throws {
        try await runExpectingBadInput(
            [], configText: "reconcile:\n  debit_link_keys: ' , '\n",
            mentions: ["reconcile.debit_link_keys", "config.yaml:2", "names no key"])
        try await runExpectingBadInput(
            [],
            environment: [
                "STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_RECONCILE_DEBIT_LINK_KEYS": "charge, refund id",
            ],
            mentions: ["CONNECT_RECON_RECONCILE_DEBIT_LINK_KEYS", "'refund id'", "commas"])
    }

    @Test("a range longer than the default maximum of 366 days, and than a configured one")
    func rangeTooLong() async throws {
        try await runExpectingBadInput(
            ["--from", "2025-01-01", "--to", "2026-11-01"], mentions: ["more than the configured maximum of 366"])
        try await runExpectingBadInput(
            ["--from", "2026-11-01", "--to", "2026-11-20"], configText: "range:\n  max_days: 7\n",
            mentions: ["spans 19 days", "maximum of 7", "range.max_days"])
    }

    @Test("a range that starts in the future")
    func futureRange() async throws {
        try await runExpectingBadInput(["--from", "2027-01-01", "--to", "2027-01-02"], mentions: ["in the future"])
    }

    // MARK: - The key

    @Test("a missing STRIPE_API_KEY names the variable and the key-file alternative")
    func missingKey() async throws {
        try await runExpectingBadInput([], environment: [:], mentions: ["STRIPE_API_KEY", "api.key_file"])
        try await runExpectingBadInput([], environment: [:], command: "extract", mentions: ["STRIPE_API_KEY"])
    }

    @Test("a publishable key is refused")
    func publishableKey() async throws {
        try await runExpectingBadInput(
            [], environment: ["STRIPE_API_KEY": "pk_live_51H8abcdefGHIJKL"], mentions: ["publishable key", "sk_live_"])
    }

    @Test(
        "anything not shaped like a secret or restricted key is refused without repeating it",
        arguments: [
            "sk_test_", "sk_test_short", "Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc", "\"sk_test_4eC39HqLyjWD\"",
            "sk_prod_4eC39HqLyjWDarjtT1zdp7dc", "whsec_4eC39HqLyjWDarjtT1zdp7dc", "sk_test_4eC39H qLyjWDarjtT1zdp7dc",
            "",
        ])
    func malformedKey(key: String) async throws {
        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", "")
        let result = await CLI.run(["run", "--config", config], environment: ["STRIPE_API_KEY": key])
        #expect(result.status == 2)
        #expect(result.error.contains("STRIPE_API_KEY"))
        if key.count > 12 { #expect(!result.error.contains(key.trimmingCharacters(in: .whitespaces))) }
    }

    @Test("an unreadable key file is named")
    func unreadableKeyFile() async throws {
        try await runExpectingBadInput(
            [], environment: [:], configText: "api:\n  key_file: /nonexistent/stripe.key\n",
            mentions: ["Cannot read the key file '/nonexistent/stripe.key'", "no such file"])
    }

    @Test("a key file holding a publishable key is refused and named")
    func keyFileWithPublishableKey() async throws {
        let folder = try TemporaryFolder()
        let keyFile = try folder.write("stripe.key", "pk_test_51H8abcdefGHIJKL\n")
        try await runExpectingBadInput(
            [], environment: [:], configText: "api:\n  key_file: \(keyFile)\n",
            mentions: ["key file '\(keyFile)'", "publishable"])
    }

    // MARK: - The history's location

    @Test(
        "a history URL that cannot be used exits 2 naming it without its password, for every command",
        arguments: ["run", "extract", "reconcile", "history"])
    func historyURLsNeverShowTheirPassword(command: String) async throws {
        let secret = "s3cr%40et"
        let cases: [(url: String, mentions: [String])] = [
            // A URL libpq cannot read: what is wrong, without the password
            ("postgresql://recon:\(secret)@[::1/recon", ["postgresql://recon:***@[::1/recon", "libpq can read"]),
            (
                "postgresql://recon:\(secret)@host/recon?nosuchoption=1",
                ["not a PostgreSQL URL libpq can read", "nosuchoption"]
            ),
            // Another kind of URL is not taken for a file name
            ("mysql://recon:\(secret)@127.0.0.1/recon", ["mysql://recon:***@127.0.0.1/recon", "mysql:// URL"]),
        ]
        for (url, mentions) in cases {
            let result: CLIResult
            if command == "history" {
                // `history` takes no range and no output folder
                result = await CLI.run(["history", "--db", url], environment: [:])
                #expect(result.status == 2, "\(url)")
                for phrase in mentions + ["output.database"] {
                    #expect(result.error.contains(phrase), "mentions '\(phrase)': \(result.error)")
                }
            } else {
                let arguments = ["--from", "2026-11-20", "--to", "2026-11-21", "--db", url]
                try await runExpectingBadInput(arguments, command: command, mentions: mentions + ["output.database"])
                result = await CLI.run([command] + arguments, environment: ["STRIPE_API_KEY": CLI.testKey])
            }
            #expect(!result.error.contains(secret) && !result.output.contains(secret), "\(url): \(result.error)")
            #expect(!result.error.contains("s3cr@et"), "the decoded password is never shown either")
        }
        // And nothing was created where the URL would be a relative path
        #expect(!FileManager.default.fileExists(atPath: "postgresql:"))
        #expect(!FileManager.default.fileExists(atPath: "mysql:"))
    }

    @Test(
        "a PostgreSQL server that cannot be reached exits 1 naming host, port and database, never the password",
        arguments: ["run", "extract", "reconcile", "history"])
    func unreachableServer(command: String) async throws {
        let secret = "s3cr%40et"
        let cases: [(url: String, shown: String)] = [
            // Nothing listens on port 1: refused
            (
                "postgresql://recon:\(secret)@127.0.0.1:1/recon?sslmode=disable",
                "postgresql://recon:***@127.0.0.1:1/recon?sslmode=disable"
            ),
            ("postgres://recon:\(secret)@db.invalid/recon", "postgresql://recon:***@db.invalid/recon"),
        ]
        let folder = try TemporaryFolder()
        for (url, shown) in cases {
            let arguments =
                command == "history"
                ? ["history", "--db", url]
                : [command, "--from", "2026-11-20", "--to", "2026-11-21", "--db", url, "--out", folder.path("out")]
            let result = await CLI.run(arguments, environment: ["STRIPE_API_KEY": CLI.testKey])
            #expect(result.status == 1, "\(url): \(result.error)")
            #expect(result.error.contains("Cannot connect to the PostgreSQL history \(shown)"), "\(result.error)")
            #expect(result.error.contains("nothing was written"), "\(result.error)")
            #expect(!result.error.contains(secret) && !result.output.contains(secret), "\(url): \(result.error)")
            #expect(!result.error.contains("s3cr@et"), "the decoded password is never shown either")
            #expect(!FileManager.default.fileExists(atPath: folder.path("out")), "no report folder was started")
        }
    }

    // MARK: - The API base

    @Test("an --api-base that is not http(s)")
    func apiBaseNotHTTP() async throws {
        try await runExpectingBadInput(["--api-base", "ftp://api.stripe.com"], mentions: ["api.base_url", "https://"])
        try await runExpectingBadInput(
            ["--api-base", "api.stripe.com"], mentions: ["api.base_url", "option --api-base"])
    }

    @Test("plain http to anything but loopback")
    func plainHTTPToRemoteHost() async throws {
        try await runExpectingBadInput(
            ["--api-base", "http://api.stripe.com"], mentions: ["plain http", "unencrypted"])
        try await runExpectingBadInput(
            [], environment: ["STRIPE_API_KEY": CLI.testKey, "STRIPE_API_BASE": "http://10.0.0.5:8080"],
            mentions: ["plain http", "STRIPE_API_BASE"])
    }

    @Test("an API base carrying credentials or a query")
    func apiBaseWithCredentials() async throws {
        try await runExpectingBadInput(
            ["--api-base", "https://user:secret@api.stripe.com"], mentions: ["must not contain a user name"])
        try await runExpectingBadInput(["--api-base", "https://api.stripe.com/?x=1"], mentions: ["query"])
    }

    // MARK: - The configuration file

    @Test("an unreadable configuration file: missing, or a folder")
    func unreadableConfig() async throws {
        let result = await CLI.run(
            ["run", "--config", "/nonexistent/connect-recon.yaml"], environment: ["STRIPE_API_KEY": CLI.testKey])
        #expect(result.status == 2)
        #expect(result.error.contains("Cannot read the configuration file '/nonexistent/connect-recon.yaml'"))
        let folder = try TemporaryFolder()
        let asFolder = await CLI.run(
            ["run", "--config", folder.url.path], environment: ["STRIPE_API_KEY": CLI.testKey])
        #expect(asFolder.status == 2)
        #expect(asFolder.error.contains("it is a folder"))
    }

    @Test("a configuration file named by CONNECT_RECON_CONFIG that does not exist")
    func missingConfigFromEnvironment() async {
        let result = await CLI.run(
            ["reconcile"], environment: ["CONNECT_RECON_CONFIG": "/nonexistent/recon.yaml"])
        #expect(result.status == 2)
        #expect(result.error.contains("/nonexistent/recon.yaml"))
    }

    @Test("an unknown key names the key, the file and line, and suggests the right one")
    func unknownKey() async throws {
        try await runExpectingBadInput(
            [], configText: "api:\n  concurrency: 4\n  rate_limt: 10\n",
            mentions: ["config.yaml:3", "unknown setting 'api.rate_limt'", "did you mean 'api.rate_limit'"])
        try await runExpectingBadInput(
            [], configText: "outptu:\n  reports_dir: x\n", mentions: ["unknown setting 'outptu'", "'output'"])
    }

    @Test("a wrong type names the key, the file and what was expected")
    func wrongType() async throws {
        try await runExpectingBadInput(
            [], configText: "api:\n  concurrency: lots\n",
            mentions: ["config.yaml:2", "'api.concurrency' must be a whole number from 1 to 256, not 'lots'"])
        try await runExpectingBadInput(
            [], configText: "api:\n  base_url: 42\n", mentions: ["'api.base_url' must be text, not 42"])
        try await runExpectingBadInput(
            [], configText: "api:\n  rate_limit: [1, 2]\n", mentions: ["'api.rate_limit'", "a list or section"])
        try await runExpectingBadInput(
            [], configText: "range: 5\n", mentions: ["'range' must be a section"])
    }

    @Test("a value out of range names the key")
    func outOfRange() async throws {
        try await runExpectingBadInput(
            [], configText: "api:\n  concurrency: 0\n", mentions: ["'api.concurrency' must be a whole number from 1"])
        try await runExpectingBadInput(
            [], environment: ["STRIPE_API_KEY": CLI.testKey, "CONNECT_RECON_API_ENDPOINT_RATE_LIMIT": "-3"],
            mentions: ["CONNECT_RECON_API_ENDPOINT_RATE_LIMIT", "api.endpoint_rate_limit"])
    }

    @Test("a file that is not YAML")
    func notYAML() async throws {
        try await runExpectingBadInput(
            [], configText: "api:\n  concurrency: [4\n", mentions: ["is not valid YAML"])
    }

    @Test("a bad log level on the command line")
    func badLogLevel() async throws {
        try await runExpectingBadInput(
            ["--log-level", "loud"], mentions: ["'log.level' must be one of trace, debug, info"])
    }

    // MARK: - Command-line usage

    @Test("an unknown option or a missing value is usage: exit 2")
    func unknownOption() async {
        let result = await CLI.run(["run", "--bogus"])
        #expect(result.status == 2)
        #expect(result.error.contains("Unknown option '--bogus'"))
        let missingValue = await CLI.run(["run", "--from"])
        #expect(missingValue.status == 2)
        let unknownCommand = await CLI.run(["reconcilee"])
        #expect(unknownCommand.status == 2)
    }

    @Test(
        "sandbox options out of range",
        arguments: [
            (["--port", "70000"], "--port"), (["--charges", "0"], "--charges"),
            (["--fail-rate", "1.5"], "--fail-rate"), (["--transfer-group-share", "2"], "--transfer-group-share"),
            (["--rate-limit", "0"], "--rate-limit"), (["--start", "2026-02-30"], "not a real calendar date"),
            (["--latency-ms", "-1"], "--latency-ms"), (["--days", "0"], "--days"), (["--hours", "24"], "--hours"),
            (["--hours", "-1"], "--hours"),
        ])
    func sandboxOptions(arguments: [String], phrase: String) async {
        let result = await CLI.run(["sandbox"] + arguments)
        #expect(result.status == 2)
        #expect(result.error.contains(phrase), "\(result.error)")
    }
}
