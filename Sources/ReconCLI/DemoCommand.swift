import ArgumentParser
import Foundation
import Sandbox

/// `connect-recon demo`: the whole job against the built-in sandbox, no Stripe account needed.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start the built-in Stripe sandbox, run the whole job on it and show where the workbook is.",
        discussion: """
            Needs no Stripe account or key: the sandbox serves a seeded, made-up Connect platform covering the \
            last 30 days, on a free port of 127.0.0.1. Two daily runs, each at 13:00 UTC once Stripe has published \
            the day before: the month up to yesterday as the world stood then, and yesterday as it stands now, \
            whose report holds the outcomes that arrived in between (a late skipped transfer, a refund that \
            failed, a dispute decided, a payout that failed) and whose books close on both proofs. The demo's \
            history is kept in <out>/demo-history.sqlite, so running it twice shows findings as open the second time.
            """)

    @Option(help: ArgumentHelp("Folder for the demo's reports (default Reports).", valueName: "dir"))
    var out: String = "Reports"

    @Option(help: "Number of made-up charges.")
    var charges: Int = 2_000

    @Option(
        help: ArgumentHelp(
            "Run as if today were this day (YYYY-MM-DD, UTC), for a demo that comes out the same every time.",
            valueName: "date"))
    var today: String?

    func validate() throws {
        guard (10...200_000).contains(charges) else { throw ValidationError("--charges must be from 10 to 200000.") }
        if let today, Self.day(today) == nil {
            throw ValidationError("--today must be a day written YYYY-MM-DD, such as 2026-11-28; got \"\(today)\".")
        }
    }

    /// The start (00:00 UTC) of the day written `text` as YYYY-MM-DD, or nil when it is not one.
    static func day(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        guard text.count == 10, let date = formatter.date(from: text), formatter.string(from: date) == text else {
            return nil
        }
        return date
    }

    func run() async throws {
        let context = CommandContext.current
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        let today = today.flatMap(Self.day) ?? calendar.startOfDay(for: context.now())
        let start = today.addingTimeInterval(-30 * 86_400)
        let yesterday = today.addingTimeInterval(-86_400)
        var options = SandboxOptions()
        options.port = 0
        options.charges = charges
        options.start = start
        options.days = 30
        // The platform's other money: Stripe's IC+ costs, billed daily, weeks late and monthly.
        options.otherMoney = true
        // Each day's run starts at 13:00 UTC, once Stripe has published the day before (about 12 hours after it
        // ends), so both proofs of the books are made: the balance is continuous and Stripe's own report agrees.
        options.hours = Self.publishedHour
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // Yesterday's run: the month up to yesterday, as the world stood then (its bank debits of the day before
        // still pending, a refund not yet failed, a dispute not yet decided, a payout not yet failed).
        options.asOf = yesterday.addingTimeInterval(TimeInterval(Self.publishedHour * 3_600))
        try await runNight(options, from: start, to: yesterday, context: context, calendar: calendar)
        // Today's run: yesterday, as the world stands now; its look-back reads again what yesterday's run left
        // pending and reports the outcomes that arrived since (a late skipped transfer, the failed refund, …), naming
        // that run's report as out of date.
        options.asOf = nil
        try await runNight(options, from: yesterday, to: today, context: context, calendar: calendar)
        context.console.writeOutput(
            "\nDemo complete: two nightly runs, the second reporting the outcomes that arrived after the first "
                + "(see its Run sheet). Open the workbooks above in Excel, LibreOffice or Google Sheets; see the runs "
                + "with:\n  connect-recon history --db \((out as NSString).appendingPathComponent("demo-history.sqlite"))\n"
        )
    }

    /// Serves the world of `options`, runs `run` over `[from, to)` as of a few minutes after the moment it is
    /// served as of, as a nightly run would (its youngest charges still inside the grace period), and stops it.
    private func runNight(
        _ options: SandboxOptions, from: Date, to: Date, context: CommandContext, calendar: Calendar
    ) async throws {
        let server = try await SandboxServer.start(options)
        context.console.writeOutput("Sandbox listening on \(server.baseURL.absoluteString) (\(server.summary))\n")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = calendar.timeZone
        let arguments = [
            "run", "--from", formatter.string(from: from), "--to", formatter.string(from: to), "--api-base",
            server.baseURL.absoluteString, "--out", out, "--db",
            (out as NSString).appendingPathComponent("demo-history.sqlite"),
            "--config", Self.emptyConfigPath(),
        ]
        var environment = context.environment
        environment["STRIPE_API_KEY"] = "sk_test_connectrecondemo"
        environment["CONNECT_RECON_RANGE_TIME_ZONE"] = "UTC"
        // The sandbox has no rate limits: let the demo use live mode's 100 requests/s.
        environment["CONNECT_RECON_API_RATE_LIMIT"] = "100"
        environment["CONNECT_RECON_API_ENDPOINT_RATE_LIMIT"] = "50"
        let worldNow = server.world.end.addingTimeInterval(Self.minutesAfterTheWorldsEnd * 60)
        let demoContext = CommandContext(environment: environment, console: context.console, now: { worldNow })
        let status = await CommandContext.$current.withValue(demoContext) { await CommandLineEntry.run(arguments) }
        try await server.shutdown()
        guard status == ExitStatus.completed.rawValue else {
            throw CompletedWithStatus(status: ExitStatus(rawValue: status) ?? .failed)
        }
    }

    /// The hour (UTC) of each demo run's world: Stripe publishes a day's report data about 12 hours after it ends.
    static let publishedHour = 13

    /// How long after the world's end the demo's run reconciles: more than the settle margin (5 minutes), well
    /// inside the grace period of asynchronous capture (an hour).
    static let minutesAfterTheWorldsEnd: Double = 10

    /// An empty configuration, so a local config/connect-recon.yaml cannot redirect the demo.
    private static func emptyConfigPath() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("connect-recon-demo-\(getpid()).yaml")
            .path
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        return path
    }
}
