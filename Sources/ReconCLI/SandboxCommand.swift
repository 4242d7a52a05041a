import ArgumentParser
import Foundation
import ReconCore
import Sandbox
import WorkerThreads

/// `connect-recon sandbox`: serve a seeded, made-up Stripe Connect platform on this machine.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Serve a seeded Stripe Connect world on 127.0.0.1 with Stripe's list and retrieve semantics.",
        discussion: """
            For trying the tool, tests and benchmarks. Accepts any sk_test_… or rk_test_… key. Point a run at it \
            with --api-base http://127.0.0.1:PORT. Serves until interrupted (Ctrl-C).
            """)

    @Option(help: "Port on 127.0.0.1; 0 picks a free one.")
    var port: Int = 12111

    @Option(help: "Seed of the made-up world: the same seed gives the same objects.")
    var seed: UInt64 = 42

    @Option(help: "Number of platform charges in the world (1 to 5,000,000).")
    var charges: Int = 2_000

    @Option(help: ArgumentHelp("First day of the world, YYYY-MM-DD in UTC.", valueName: "date"))
    var start: String = "2026-11-01"

    @Option(help: "Number of days the world spans.")
    var days: Int = 30

    @Option(help: "Hours the world spans beyond its days (0 to 23), so that its end, its \"now\", falls mid-day.")
    var hours: Int = 0

    @Option(
        name: .customLong("as-of"),
        help: ArgumentHelp(
            "Serve the world as Stripe would have served it at this moment (YYYY-MM-DD, midnight UTC, or RFC 3339), "
                + "after its start and at or before its end: later objects do not exist yet, the others are in their "
                + "state then. Default: its end.", valueName: "date"))
    var asOf: String?

    @Option(
        name: .customLong("transfer-group-share"),
        help: "Share of the random charges (0 to 1) that are separate charges and transfers (transfer groups).")
    var transferGroupShare: Double = 0

    @Option(name: .customLong("latency-ms"), help: "Delay added to every response, in milliseconds.")
    var latencyMilliseconds: Int = 0

    @Option(
        name: .customLong("expansion-latency-us"),
        help: "Delay added per expanded object in a response, in microseconds (deep expansions are slower).")
    var expansionLatencyMicroseconds: Int = 0

    @Option(name: .customLong("fail-rate"), help: "Share of requests answered 500 (0 to 1), like Stripe's rare errors.")
    var failRate: Double = 0

    @Option(name: .customLong("rate-limit"), help: "Requests per second across all endpoints before 429s.")
    var rateLimit: Double?

    @Option(name: .customLong("endpoint-rate-limit"), help: "Requests per second to one endpoint before 429s.")
    var endpointRateLimit: Double?

    @Option(
        name: .customLong("forbid"),
        help: ArgumentHelp(
            "Answer 403 to restricted keys (rk_test_…) for this resource (application_fees, disputes, …), to try a "
                + "key without a permission. Repeatable.", valueName: "resource"))
    var forbiddenResources: [String] = []

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be from 0 to 65535 (0 picks a free port).")
        }
        guard (1...5_000_000).contains(charges) else { throw ValidationError("--charges must be from 1 to 5000000.") }
        guard (1...3_660).contains(days) else { throw ValidationError("--days must be from 1 to 3660.") }
        guard (0...23).contains(hours) else {
            throw ValidationError("--hours must be from 0 to 23 (whole days go in --days).")
        }
        guard (0...60_000).contains(latencyMilliseconds) else {
            throw ValidationError("--latency-ms must be from 0 to 60000.")
        }
        guard (0...1_000_000).contains(expansionLatencyMicroseconds) else {
            throw ValidationError("--expansion-latency-us must be from 0 to 1000000.")
        }
        guard (0...1).contains(transferGroupShare) else {
            throw ValidationError(
                "--transfer-group-share is a share from 0 to 1 (0.2 makes a fifth of the charges groups).")
        }
        guard (0...1).contains(failRate) else {
            throw ValidationError("--fail-rate is a share from 0 to 1 (0.05 answers 5 % of requests with a 500).")
        }
        for (name, value) in [("--rate-limit", rateLimit), ("--endpoint-rate-limit", endpointRateLimit)] {
            if let value, !(value > 0 && value.isFinite) {
                throw ValidationError("\(name) must be a positive number of requests per second.")
            }
        }
        let options = try worldOptions()
        do {
            try options.checkAsOf()
        } catch {
            throw ValidationError("--as-of: " + error.message)
        }
    }

    /// `--start` as midnight UTC.
    func startDate() throws -> Date { try parse(start, option: "--start") }

    /// `--as-of` as an instant: midnight UTC of a date, or an RFC 3339 timestamp.
    func asOfDate() throws -> Date? { try asOf.map { try parse($0, option: "--as-of") } }

    private func parse(_ text: String, option: String) throws -> Date {
        guard let utc = TimeZone(identifier: "UTC") else { throw ValidationError("the UTC time zone is missing") }
        let resolver = RangeResolver(timeZone: utc, maximumDays: 3_660, now: Date())
        do {
            return try resolver.parse(text, option: option)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The options that shape the world: seed, charges, start, days, hours, transfer groups and the moment it is
    /// served as of.
    private func worldOptions() throws -> SandboxOptions {
        var options = SandboxOptions()
        options.seed = seed
        options.charges = charges
        options.start = try startDate()
        options.days = days
        options.hours = hours
        options.transferGroupShare = transferGroupShare
        options.asOf = try asOfDate()
        return options
    }

    func run() async throws {
        var options = try worldOptions()
        options.port = port
        options.latency = .milliseconds(latencyMilliseconds)
        options.expansionLatency = .microseconds(expansionLatencyMicroseconds)
        options.failRate = failRate
        options.rateLimit = rateLimit
        options.endpointRateLimit = endpointRateLimit
        options.restrictedKeyForbiddenResources = Set(forbiddenResources)
        let console = CommandContext.current.console
        let server = try await SandboxServer.start(options)
        console.writeOutput("Sandbox listening on \(server.baseURL.absoluteString) (\(server.summary))\n")
        await SignalWaiter.waitForInterrupt()
        try await server.shutdown()
        console.writeOutput("Sandbox stopped.\n")
    }
}
