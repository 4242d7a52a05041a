import ConnectReconTestSupport
import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import TestSupport
import Testing

/// The books close (docs/RULES.md), end to end: two consecutive daily runs on one history, each against the
/// sandbox's world as of its own day (13 hours into the day after its range: payouts created that morning are in
/// transit, the balance transactions after the range are read with it, and Stripe has published the range). Every balance rolls forward exactly as the
/// ground truth adds it up from the world's first day (no snapshot involved there), and the second night is
/// continuous with the first; on both histories, with the same `balance.csv` bytes.
@Suite("The books close, end to end", .serialized)
struct BooksCloseEndToEndTests {
    static let day: TimeInterval = 86_400
    static let utc = TimeZone(identifier: "UTC")!
    static let calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        return calendar
    }()

    static func dateText(_ date: Date) -> String { String(RFC3339.utcString(date).prefix(10)) }

    /// An amount as `balance.csv` writes it.
    static func text(_ minorUnits: Int64?, _ currency: Currency) -> String {
        minorUnits.flatMap { try? Money(minorUnits: $0, currency: currency).formatted() } ?? ""
    }

    /// The world (18 days and `hours` from 2026-11-01) as of its end and as of a day earlier.
    static func worlds(hours: Int = 13) async throws -> (earlier: SandboxServer, later: SandboxServer) {
        var options = SandboxOptions()
        options.charges = 800
        options.days = 18
        options.hours = hours
        let later = try await SandboxServer.start(options)
        options.asOf = later.world.earlierMoment
        let earlier = try await SandboxServer.start(options)
        return (earlier, later)
    }

    /// The ranges of the two nights: the day before each world's moment.
    static func nights(_ earlier: SandboxServer, _ later: SandboxServer) throws -> [ReportingRange] {
        try [earlier, later].map { server in
            let to = calendar.startOfDay(for: server.world.end)
            return try ReportingRange(from: to.addingTimeInterval(-day), to: to, timeZone: utc)
        }
    }

    /// Runs `range` against `server` on `database`; returns the report folder.
    static func run(
        _ range: ReportingRange, _ server: SandboxServer, database: String, folder: TemporaryFolder
    ) async throws -> URL {
        let config = try folder.write("config.yaml", "")
        let out = folder.url.appendingPathComponent("reports")
        let result = await CLI.run(
            [
                "run", "--api-base", server.baseURL.absoluteString, "--config", config, "--from",
                dateText(range.from), "--to", dateText(range.to), "--out", out.path, "--db", database,
            ], environment: ["STRIPE_API_KEY": CLI.testKey])
        #expect(result.status == 0, "run \(range.folderName): \(result.error)")
        return out.appendingPathComponent(range.folderName)
    }

    /// `balance.csv`'s rows by `currency/balance_type`, each as its columns.
    static func balance(_ folder: URL) throws -> [String: [String]] {
        let text = try String(contentsOf: folder.appendingPathComponent("balance.csv"), encoding: .utf8)
        var rows: [String: [String]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            rows["\(cells[0])/\(cells[1])"] = cells
        }
        return rows
    }

    /// The ground truth's figures as `balance.csv` writes them: starting, activity, payouts, ending, in transit,
    /// Stripe's balance.
    static func expected(_ truth: GroundTruth) -> [String: [String]] {
        var rows: [String: [String]] = [:]
        for row in truth.balance {
            func text(_ value: Int64?) -> String { Self.text(value, row.currency) }
            rows["\(row.currency.rawValue)/\(row.balanceType.rawValue)"] = [
                text(row.startingBalance), text(row.activity), text(row.payouts), text(row.endingBalance),
                text(row.inTransitPayouts), text(row.stripeBalance),
            ]
        }
        return rows
    }

    @Test(
        "two days roll every balance forward as the ground truth adds it up, continuously, as Stripe's reports say, on PostgreSQL",
        .postgreSQLServer)
    func twoNightsCloseOnPostgreSQL() async throws { try await twoNightsClose(backend: .postgreSQL) }

    @Test(
        "two days roll every balance forward as the ground truth adds it up, continuously, as Stripe's reports say",
        arguments: [TestHistoryBackend.sqlite])
    func twoNightsClose(backend: TestHistoryBackend) async throws {
        // Given the world as of two nights
        let (earlier, later) = try await Self.worlds()
        let ranges = try Self.nights(earlier, later)
        let folder = try TemporaryFolder()
        let database = try backend.newHistory(in: folder)
        var sawInTransit = false
        for (index, (range, server)) in zip(ranges, [earlier, later]).enumerated() {
            // When the night's run reads it
            let report = try await Self.run(range, server, database: database, folder: folder)
            // Then each balance's figures are the ground truth's
            let truth = server.world.groundTruth(for: range, asOf: CLI.now, skippedTransferGrace: 3_600)
            let written = try Self.balance(report)
            let expected = Self.expected(truth)
            #expect(Set(written.keys) == Set(expected.keys), "night \(index + 1): the balances")
            for (key, figures) in expected {
                let row = try #require(written[key], "night \(index + 1): \(key)")
                #expect(Array(row[2...5] + [row[6], row[7]]) == figures, "night \(index + 1): \(key)")
                // The first night has no earlier snapshot; the second is continuous with the first.
                let currency = try #require(Currency(rawValue: row[0]))
                #expect(row[9] == (index == 0 ? "" : Self.text(0, currency)), "night \(index + 1): \(key) continuity")
                // And the payments balances agree with the sandbox's own Balance reports, to the minor unit
                #expect(row[10] == (key.hasSuffix("/payments") ? "agrees" : "not_compared"), "\(key)")
            }
            if truth.balance.contains(where: { ($0.inTransitPayouts ?? 0) != 0 }) { sawInTransit = true }
            #expect(!truth.balance.isEmpty)
        }
        #expect(sawInTransit, "a payout created the morning after a range is in transit at the snapshot")
    }

    @Test("a balance transaction the lists never show breaks continuity by exactly its net")
    func hiddenTransactionBreaksContinuity() async throws {
        // Given an Issuing transaction (only the balance transactions list shows one) that the lists leave out but
        // Stripe's balance counts, made after the first night's balance read and during the second night's range:
        // the first night reads Stripe's balance an hour before it, the second an hour after its day
        var options = SandboxOptions()
        options.charges = 800
        options.days = 18
        var found: (seed: UInt64, id: String, created: Date)?
        for seed in UInt64(42)...UInt64(60) where found == nil {
            let world = SandboxWorld(
                seed: seed, charges: options.charges, start: options.start, end: options.end, asOf: nil,
                transferGroupShare: 0)
            let window = options.start.addingTimeInterval(2 * Self.day)..<options.end.addingTimeInterval(-2 * Self.day)
            for id in world.balanceTransactionIDs(type: "issuing_transaction", createdIn: window) {
                let created = try LateOutcomesEndToEndTests.created(world, id)
                if created.timeIntervalSince(Self.calendar.startOfDay(for: created)) >= 7_200 {
                    found = (seed, id, created)
                    break
                }
            }
        }
        let hidden = try #require(found, "a world has an Issuing transaction to hide")
        options.seed = hidden.seed
        options.hiddenBalanceTransactions = [hidden.id]
        let day = Self.calendar.startOfDay(for: hidden.created)
        options.asOf = hidden.created.addingTimeInterval(-3_600)
        let earlier = try await SandboxServer.start(options)
        options.asOf = day.addingTimeInterval(Self.day + 3_600)
        let later = try await SandboxServer.start(options)
        let data = try #require(later.world.renderedObject(id: hidden.id))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let net = try #require(object["net"] as? Int)
        let code = try #require(object["currency"] as? String)
        let currency = try #require(Currency(rawValue: code))
        let ranges = try Self.nights(earlier, later)
        #expect(ranges[1].from == day)
        let folder = try TemporaryFolder()
        let database = folder.path("history.sqlite")

        // When both nights run
        _ = try await Self.run(ranges[0], earlier, database: database, folder: folder)
        let report = try await Self.run(ranges[1], later, database: database, folder: folder)

        // Then the second night's Issuing balance is off by the hidden transaction's net, named by its finding
        let row = try #require(try Self.balance(report)["\(currency.rawValue)/issuing"])
        #expect(row[9] == Self.text(Int64(net), currency))
        let exceptions = try String(contentsOf: report.appendingPathComponent("exceptions.csv"), encoding: .utf8)
        let finding = try #require(
            exceptions.split(separator: "\n").first { $0.hasPrefix("balance_not_continuous,") })
        #expect(finding.contains("\(currency.rawValue)/issuing/\(ranges[1].folderName)"))
        // And every other balance is still continuous
        for (key, other) in try Self.balance(report) where key != "\(currency.rawValue)/issuing" {
            #expect(other[9] == Self.text(0, Currency(rawValue: other[0]) ?? .usd), "\(key)")
        }
    }
    @Test("a month-old range is anchored once the history holds the days since, with no list after it")
    func monthOldRangeAnchoredThroughTheHistory() async throws {
        // Given the world as of its end (2026-11-19 07:00) and a range 13 days before it
        let (_, server) = try await Self.worlds()
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: 1_793_836_800), to: Date(timeIntervalSince1970: 1_793_923_200),
            timeZone: Self.utc)  // 2026-11-05
        let folder = try TemporaryFolder()
        let database = folder.path("history.sqlite")

        // When it runs in a fresh history: the read is too far after it to be reached by listing
        let before = server.requestStats.total
        let first = try await Self.run(range, server, database: database, folder: folder)
        let firstRequests = server.requestStats.total - before
        // Then its balances have activity but no ending balance, and nothing after the range was listed
        let unanchored = try Self.balance(first)
        #expect(unanchored["usd/payments"]?[5] == "", "not anchored")
        #expect(unanchored["usd/payments"]?[3] != "")

        // When the days since are extracted, and the range runs again
        let config = try folder.write("config.yaml", "")
        let extract = await CLI.run(
            [
                "extract", "--api-base", server.baseURL.absoluteString, "--config", config, "--from", "2026-11-06",
                "--to", "2026-11-19", "--db", database,
            ], environment: ["STRIPE_API_KEY": CLI.testKey])
        #expect(extract.status == 0, "\(extract.error)")
        let again = server.requestStats.total
        let second = try await Self.run(range, server, database: database, folder: folder)
        // Then it is anchored through the history, with no more requests than the first time, and its figures are
        // the ground truth's
        #expect(server.requestStats.total - again <= firstRequests, "no list after the range")
        let truth = server.world.groundTruth(for: range, asOf: CLI.now, skippedTransferGrace: 3_600)
        let written = try Self.balance(second)
        for (key, figures) in Self.expected(truth) {
            let row = try #require(written[key], "\(key)")
            #expect(Array(row[2...5]) == Array(figures[0...3]), "\(key)")
        }
        #expect(written["usd/payments"]?[5] != "")
    }
}
