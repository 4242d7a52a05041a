import ConnectReconTestSupport
import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import Testing

@testable import History

/// `connect-recon run` against the sandbox, compared with the sandbox's ground truth (docs/RULES.md and
/// docs/REPORTS.md).
@Suite("The command line against the ground truth", .serialized)
struct CommandLineAgainstGroundTruthTests {
    /// 2026-11-01 … 2026-11-20: ends before CLI.now (2026-11-21T01:30Z) minus the settle margin.
    static let from = "2026-11-01"
    static let to = "2026-11-20"

    static func money(_ minorUnits: Int64, _ currency: Currency) -> String {
        (try? Money(minorUnits: minorUnits, currency: currency).formatted()) ?? "?"
    }

    static func text(_ value: ExceptionValue?, _ currency: Currency) -> String {
        switch value {
        case .amount(let minor)?: money(minor, currency)
        case .text(let text)?: text
        case nil: ""
        }
    }

    static func time(_ seconds: Int64) -> String {
        RFC3339.string(unixSeconds: seconds, in: TimeZone(secondsFromGMT: 0)!)
    }

    /// The ground truth as the CSV lines each file must hold (without the trailing status column).
    static func expectedLines(_ truth: GroundTruth) -> [String: Set<String>] {
        var files: [String: Set<String>] = [:]
        files["platform_fees.csv"] = Set(
            truth.platformFees.map { row in
                let c = row.currency
                let charge: [String] = [
                    row.chargeID, time(row.created), c.rawValue, money(row.amount, c), money(row.amountRefunded, c),
                    row.destinationAccount ?? "", row.feeStyle.rawValue, row.transferID ?? "",
                    row.transferID == nil ? "" : money(row.transferAmount, c),
                    row.transferID == nil ? "" : money(row.transferReversed, c),
                ]
                let fee: [String] = [
                    row.applicationFeeID ?? "", row.applicationFeeCurrency?.rawValue ?? "",
                    row.applicationFeeCurrency.map { money(row.applicationFeeAmount, $0) } ?? "",
                    row.applicationFeeCurrency.map { money(row.applicationFeeRefunded, $0) } ?? "",
                ]
                let settlement = row.settlementCurrency
                let platform: [String] = [
                    money(row.destinationPlatformFee, c), settlement.map { money(row.stripeFee, $0) } ?? "",
                    settlement?.rawValue ?? "", settlement.flatMap { s in row.platformNet.map { money($0, s) } } ?? "",
                ]
                return (charge + fee + platform).joined(separator: ",")
            })
        files["skipped_transfers.csv"] = Set(
            truth.skippedTransfers.map { row in
                [
                    row.chargeID, time(row.created), row.currency.rawValue, money(row.amount, row.currency),
                    row.intendedDestination, row.paymentIntentID, money(row.amountOwed, row.currency),
                ].joined(separator: ",")
            })
        files["unreversed_disputes.csv"] = Set(
            truth.unreversedDisputes.map { row in
                let c = row.currency
                return [
                    row.disputeID, row.chargeID, time(row.created), c.rawValue, money(row.disputeAmount, c),
                    row.disputeStatus.rawValue, row.destinationAccount ?? "", row.transferID ?? "",
                    money(row.recoverable, c),
                    money(row.recovered, c), money(row.unrecovered, c),
                ].joined(separator: ",")
            })
        files["exceptions.csv"] = Set(
            truth.exceptions.map { row in
                [
                    row.kind.rawValue, row.objectID, row.relatedID ?? "", row.currency.rawValue,
                    text(row.expected, row.currency), text(row.actual, row.currency),
                ].joined(separator: ",")
            })
        files["ledger.csv"] = Set(
            truth.ledger.map { row in
                [
                    row.currency.rawValue, row.balanceType.rawValue, row.reportingCategory.rawValue, String(row.count),
                    money(row.gross, row.currency),
                    money(row.fee, row.currency), money(row.net, row.currency),
                ].joined(separator: ",")
            })
        files["summary.csv"] = Set(
            truth.summary.map { row in
                let c = row.currency
                return [
                    c.rawValue, String(row.destinationCharges), money(row.gross, c), money(row.refunded, c),
                    money(row.destinationPlatformFee, c), money(row.stripeFee, c), String(row.skippedTransfers),
                    money(row.amountOwed, c), String(row.unreversedDisputes), money(row.unrecovered, c),
                ].joined(separator: ",")
            })
        files["connected_accounts.csv"] = Set(
            truth.connectedAccounts.map { row in
                let c = row.currency
                return [
                    row.destinationAccount ?? "", c.rawValue, String(row.destinationCharges), money(row.gross, c),
                    money(row.refunded, c), money(row.transferred, c), money(row.reversed, c),
                    money(row.applicationFees, c), money(row.destinationPlatformFee, c), String(row.skippedTransfers),
                    money(row.amountOwed, c), String(row.unreversedDisputes), money(row.unrecovered, c),
                ].joined(separator: ",")
            })
        // A kind holds no comma, quote or leading `=`, `+`, `-`, `@`: written as it is
        files["stripe_costs.csv"] = Set(
            truth.stripeCosts.map { row in
                [row.day, row.currency.rawValue, row.kind, String(row.count), money(row.amount, row.currency)]
                    .joined(separator: ",")
            })
        files["transfer_groups.csv"] = Set(
            truth.transferGroups.map { row in
                let c = row.currency
                func amount(_ value: Int64?) -> String { c.flatMap { c in value.map { money($0, c) } } ?? "" }
                let s = row.settlementCurrency
                return [
                    row.transferGroup, time(row.created), c?.rawValue ?? "", String(row.charges), amount(row.charged),
                    amount(row.refunded), String(row.transfers), amount(row.transferred), amount(row.reversed),
                    amount(row.platformTake), s.flatMap { s in row.stripeFee.map { money($0, s) } } ?? "",
                    s?.rawValue ?? "", s.flatMap { s in row.platformNet.map { money($0, s) } } ?? "",
                ].joined(separator: ",")
            })
        files["payouts.csv"] = Set(
            truth.payouts.map { row in
                let c = row.currency
                return [
                    row.payoutID, time(row.created), time(row.arrivalDate), c.rawValue, money(row.amount, c),
                    row.status.rawValue, row.reconciliationStatus?.rawValue ?? "",
                    row.balanceTransactions.map(String.init) ?? "",
                    row.netOfTransactions.map { money($0, c) } ?? "", row.difference.map { money($0, c) } ?? "",
                ].joined(separator: ",")
            })
        files["payout_transactions.csv"] = Set(
            truth.payoutTransactions.map { row in
                let c = row.currency
                return [
                    row.payoutID, row.balanceTransactionID, time(row.created), row.availableOn.map(time) ?? "",
                    c.rawValue,
                    money(row.gross, c), money(row.fee, c), money(row.net, c), row.reportingCategory.rawValue,
                    row.sourceID ?? "",
                ].joined(separator: ",")
            })
        return files
    }

    /// A written CSV's data lines, cut to `columns` fields (the fields compared never contain commas).
    static func lines(_ url: URL, columns: Int) throws -> [String] {
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).prefix(columns).joined(separator: ",")
        }
    }

    /// Expects every report file in `folder` (those of `only`, when given) to hold exactly the ground truth's rows,
    /// each once, and names a few rows missing or extra when it does not.
    static func expectFiles(
        in folder: URL, match truth: GroundTruth, only: Set<String>? = nil, _ label: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (file, lines) in expectedLines(truth) where only?.contains(file) ?? true {
            let written = try Self.lines(folder.appendingPathComponent(file), columns: try #require(columns[file]))
            #expect(written.count == lines.count, "\(label)\(file): row count", sourceLocation: sourceLocation)
            #expect(Set(written) == lines, "\(label)\(file): rows", sourceLocation: sourceLocation)
            if Set(written) != lines {
                let missing = Array(lines.subtracting(written).sorted().prefix(3))
                let extra = Array(Set(written).subtracting(lines).sorted().prefix(3))
                Issue.record("\(label)\(file) missing \(missing) extra \(extra)", sourceLocation: sourceLocation)
            }
        }
    }

    static let columns = [
        "platform_fees.csv": 18, "skipped_transfers.csv": 7, "unreversed_disputes.csv": 11, "exceptions.csv": 6,
        "ledger.csv": 7, "summary.csv": 10, "connected_accounts.csv": 13, "payouts.csv": 10,
        "payout_transactions.csv": 10, "transfer_groups.csv": 13, "stripe_costs.csv": 5,
    ]

    @Test(
        "run writes exactly the ground truth; a re-run marks findings open; reconcile reproduces it offline, on PostgreSQL",
        .postgreSQLServer)
    func runMatchesGroundTruthOnPostgreSQL() async throws { try await runMatchesGroundTruth(backend: .postgreSQL) }

    @Test(
        "run writes exactly the ground truth; a re-run marks findings open; reconcile reproduces it offline",
        arguments: [TestHistoryBackend.sqlite])
    func runMatchesGroundTruth(backend: TestHistoryBackend) async throws {
        // Given a sandbox world and its ground truth for the range, as of the run's clock
        let sandbox = try await SandboxCommandLine.start(charges: 800, days: 19)
        let server = sandbox.server
        let out = sandbox.folder.url.appendingPathComponent("reports")
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: 1_793_491_200),
            to: Date(timeIntervalSince1970: 1_793_491_200 + 19 * 86_400),
            timeZone: TimeZone(identifier: "UTC")!)
        let truth = server.world.groundTruth(for: range, asOf: CLI.now, skippedTransferGrace: 3_600)
        let database = try backend.newHistory(in: sandbox.folder)
        let arguments = sandbox.arguments([], from: Self.from, to: Self.to, database: database)

        // When connect-recon runs the range
        let first = await sandbox.run(["run"] + arguments)
        #expect(first.status == 0, "\(first.error)")

        // Then every file holds exactly the ground truth's rows, all new
        let reportFolder = out.appendingPathComponent("\(Self.from)_\(Self.to)")
        let expected = Self.expectedLines(truth)
        try Self.expectFiles(in: reportFolder, match: truth)
        #expect(!truth.skippedTransfers.isEmpty && !truth.unreversedDisputes.isEmpty && !truth.exceptions.isEmpty)
        #expect(!truth.payouts.isEmpty && !truth.payoutTransactions.isEmpty)
        let firstStatuses = try String(
            contentsOf: reportFolder.appendingPathComponent("skipped_transfers.csv"), encoding: .utf8)
        #expect(firstStatuses.split(separator: "\n").dropFirst().allSatisfy { $0.hasSuffix(",new") })
        #expect(
            FileManager.default.fileExists(
                atPath: reportFolder.appendingPathComponent("reconciliation_\(Self.from)_\(Self.to).xlsx").path))

        // When it runs again, the figures are the same and every finding is open
        let second = await sandbox.run(["run"] + arguments)
        #expect(second.status == 0, "\(second.error)")
        for (file, lines) in expected {
            #expect(
                Set(try Self.lines(reportFolder.appendingPathComponent(file), columns: Self.columns[file]!)) == lines)
        }
        for file in ["skipped_transfers.csv", "unreversed_disputes.csv", "exceptions.csv"] {
            let text = try String(contentsOf: reportFolder.appendingPathComponent(file), encoding: .utf8)
            #expect(text.split(separator: "\n").dropFirst().allSatisfy { $0.hasSuffix(",open") }, "\(file) all open")
        }
        var csvAfterRerun: [String: Data] = [:]
        for file in expected.keys {
            csvAfterRerun[file] = try Data(contentsOf: reportFolder.appendingPathComponent(file))
        }
        try await server.shutdown()

        // And reconcile, with the sandbox gone, reproduces the same files byte for byte
        let offline = await CLI.run(["reconcile"] + arguments)
        #expect(offline.status == 0, "\(offline.error)")
        for (file, data) in csvAfterRerun {
            #expect(try Data(contentsOf: reportFolder.appendingPathComponent(file)) == data, "\(file) reproduced")
        }
        let store = try HistoryStore.open(try HistoryLocation(database))
        #expect(try store.runs.list().map(\.command) == ["reconcile", "run", "run"])
        #expect(try store.runs.list().allSatisfy { $0.status == .completed })
    }

    @Test(
        "a slice of days 3–5 matches the ground truth, with references across both boundaries followed",
        arguments: [0, 0.2])
    func sliceMatchesGroundTruth(transferGroupShare: Double) async throws {
        // Seed 42 with 400 charges over 10 days has a won dispute on day 3–5 repaid after day 5; with a fifth of its
        // charges in transfer groups, groups whose transfers are made after day 5 and refunds and disputes of
        // older groups' charges.
        var options = SandboxOptions()
        options.transferGroupShare = transferGroupShare
        let sandbox = try await SandboxCommandLine.start(charges: 400, days: 10, options)
        let server = sandbox.server
        let out = sandbox.folder.url.appendingPathComponent("reports")
        let start: TimeInterval = 1_793_491_200 + 3 * 86_400
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: start), to: Date(timeIntervalSince1970: start + 2 * 86_400),
            timeZone: TimeZone(identifier: "UTC")!)
        let truth = server.world.groundTruth(for: range, asOf: CLI.now, skippedTransferGrace: 3_600)
        let result = await sandbox.run(
            sandbox.arguments(
                ["run"], from: "2026-11-04", to: "2026-11-06", database: sandbox.folder.path("h.sqlite")))
        #expect(result.status == 0, "\(result.error)")
        let reportFolder = out.appendingPathComponent("2026-11-04_2026-11-06")
        try Self.expectFiles(in: reportFolder, match: truth)
        try await server.shutdown()
    }
}
