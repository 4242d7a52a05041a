import ConnectReconTestSupport
import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import Testing

/// The platform's other money (docs/RULES.md), end to end with the real `connect-recon` binary against a world that
/// holds it, on one history, SQLite or PostgreSQL: three ranges as of an earlier moment and the next night as of the
/// world's end.
/// - Stripe's costs outside charges (IC+ card fees the next day, network costs weeks late, fee credits, a month of
///   Connect fees, a cost naming no day and one naming a day no calendar has): `stripe_costs.csv` of every range is
///   the ground truth of its range, each cost under the day it names, and the Summary's `stripe_costs` is their sum.
/// - Losses covered for connected accounts (`connect_collection_transfer`, the account read from the transaction's
///   expanded source): `losses_covered` per account and in the Summary as the ground truth says; one whose source
///   names no account counts under none, with a `collection_account_unknown` exception.
/// - Account debits (`stripe_account` payments, `py_…`): `account_debits` per debited account and in the Summary as the
///   ground truth says, none of them a `platform_fees` row; payments from an account's balance are no debit.
/// - Account debits that give back: a refund share debited the next day naming the charge is resolved that night, one
///   naming nothing stays open; a dispute's funds debited naming the dispute are recovered.
/// - Disputes on destination charges made `on_behalf_of` their account: none is an unreversed dispute while it is
///   decided; the one lost during the last day is one in the next night's report, dated on its own day.
@Suite("The platform's other money, end to end", .serialized)
struct OtherMoneyEndToEndTests {
    static let day: TimeInterval = 86_400

    @Test("costs by the day they name, on_behalf_of disputes judged when lost, on SQLite")
    func onSQLite() async throws { try await ranges(.sqlite) }

    @Test("costs by the day they name, on_behalf_of disputes judged when lost, on PostgreSQL", .postgreSQLServer)
    func onPostgreSQL() async throws { try await ranges(.postgreSQL) }

    func ranges(_ backend: TestHistoryBackend) async throws {
        guard Executable.isBuilt else {
            Issue.record("connect-recon was not built next to the tests at \(Executable.url.path)")
            return
        }
        // Given a world that bills Stripe's costs, served as of a day before its end and as of its end
        let servers = try await TwoMoments.start(charges: 400, days: 10) { $0.otherMoney = true }
        let (later, earlier, start, calendar) = (servers.later, servers.earlier, servers.start, servers.calendar)
        let moment = later.world.earlierMoment

        let folder = try TemporaryFolder()
        let config = try folder.write("config.yaml", "")
        let out = folder.url.appendingPathComponent("reports")
        let database = try backend.newHistory(in: folder)
        func dateText(_ date: Date) -> String { String(RFC3339.utcString(date).prefix(10)) }

        // When the first three days, the week after them and the night before the earlier moment run against the
        // world as of that moment, and the next night against the world as of its end
        let ranges: [(Date, Date, SandboxServer)] = [
            (start, start.addingTimeInterval(3 * Self.day), earlier),
            (start.addingTimeInterval(3 * Self.day), moment.addingTimeInterval(-Self.day), earlier),
            (moment.addingTimeInterval(-Self.day), moment, earlier), (moment, later.world.end, later),
        ]
        let lostDispute = try #require(later.world.ids(for: .lateOnBehalfOfDisputeLost).first)
        let openCharge = try #require(later.world.ids(for: .onBehalfOfDisputeOpen).first)
        var disputeRows: [String: [[String: String]]] = [:]
        var exceptionRows: [String: [[String: String]]] = [:]
        let recoveredByDebit = try #require(later.world.ids(for: .lateRefundRecoveredByDebit).first)
        let debitedUnlinked = try #require(later.world.ids(for: .lateRefundDebitedUnlinked).first)
        let recoveredByTransfer = try #require(later.world.ids(for: .lateRefundRecoveredByTransferDebit).first)
        let disputedByDebit = try #require(later.world.ids(for: .lateDisputeRecoveredByDebit).first)
        var allRows: [[String: String]] = []
        var allLosses: Set<String> = []
        var allDebits: Set<String> = []
        var unknownCollections = 0
        for (from, to, server) in ranges {
            let arguments = [
                "run", "--config", config, "--from", dateText(from), "--to", dateText(to), "--out", out.path, "--db",
                database, "--api-base", server.baseURL.absoluteString,
            ]
            let result = try await Executable.run(
                arguments, environment: ["STRIPE_API_KEY": CLI.testKey], logs: folder)
            #expect(result.status == 0, "run \(dateText(from)): \(result.error)")
            let report = out.appendingPathComponent("\(dateText(from))_\(dateText(to))")

            // Then stripe_costs.csv is the ground truth of the range as that world served it (and, for the first
            // range, whose history holds nothing earlier to judge again, every file is)
            let range = try ReportingRange(from: from, to: to, timeZone: calendar.timeZone)
            let truth = server.world.groundTruth(for: range, asOf: Date(), skippedTransferGrace: 3_600)
            #expect(!truth.stripeCosts.isEmpty, "the world bills costs in \(range)")
            try CommandLineAgainstGroundTruthTests.expectFiles(
                in: report, match: truth, only: from == start ? nil : ["stripe_costs.csv"], "\(dateText(from)) ")
            // and the Summary's stripe_costs is the sum of stripe_costs.csv in its currency
            let costs = try MovedByHandEndToEndTests.rows(report, "stripe_costs.csv")
            for summary in try MovedByHandEndToEndTests.rows(report, "summary.csv") {
                let inCurrency = costs.filter { $0["currency"] == summary["currency"] }
                let total = inCurrency.reduce(Decimal(0)) { $0 + (Decimal(string: $1["amount"] ?? "") ?? .nan) }
                #expect(
                    Decimal(string: summary["stripe_costs"] ?? "") == total,
                    "\(dateText(from)) \(summary["currency"] ?? "")")
            }
            // and the losses covered for each account, and in the Summary, are the ground truth's
            func money(_ minorUnits: Int64, _ currency: Currency) -> String {
                CommandLineAgainstGroundTruthTests.money(minorUnits, currency)
            }
            let statements = try MovedByHandEndToEndTests.rows(report, "connected_accounts.csv")
            /// `account currency amount` of the statements whose `column` is not zero, as written and as the truth has it.
            func nonZero(_ column: String, _ field: KeyPath<ConnectedAccountRow, Int64>) -> (Set<String>, Set<String>) {
                let written = statements.filter { Decimal(string: $0[column] ?? "") != 0 }
                    .map { "\($0["destination_account"] ?? "") \($0["currency"] ?? "") \($0[column] ?? "")" }
                let expected = truth.connectedAccounts.filter { $0[keyPath: field] != 0 }
                    .map { "\($0.destinationAccount ?? "") \($0.currency) \(money($0[keyPath: field], $0.currency))" }
                return (Set(written), Set(expected))
            }
            let (losses, expectedLosses) = nonZero("losses_covered", \.lossesCovered)
            #expect(losses == expectedLosses, "\(dateText(from)) losses covered")
            // and so are the account debits (the payments from an account's balance are none)
            let (debits, expectedDebits) = nonZero("account_debits", \.accountDebits)
            #expect(debits == expectedDebits, "\(dateText(from)) account debits")
            allDebits.formUnion(debits)
            let fees = try MovedByHandEndToEndTests.rows(report, "platform_fees.csv")
            #expect(fees.allSatisfy { $0["charge_id"]?.hasPrefix("py_") == false }, "no debit is a sale")
            for truthRow in truth.summary {
                let summary = try MovedByHandEndToEndTests.rows(report, "summary.csv")
                    .first { $0["currency"] == truthRow.currency.rawValue }
                #expect(
                    summary?["losses_covered"] == money(truthRow.lossesCovered, truthRow.currency),
                    "\(truthRow.currency)")
                #expect(
                    summary?["account_debits"] == money(truthRow.accountDebits, truthRow.currency),
                    "\(truthRow.currency)")
            }
            allLosses.formUnion(losses)
            unknownCollections += try MovedByHandEndToEndTests.rows(report, "exceptions.csv")
                .filter { $0["kind"] == "collection_account_unknown" }.count
            disputeRows[dateText(from)] = try MovedByHandEndToEndTests.rows(report, "unreversed_disputes.csv")
            exceptionRows[dateText(from)] = try MovedByHandEndToEndTests.rows(report, "exceptions.csv")
            allRows += costs.map { $0.merging(["range": dateText(from)]) { $1 } }
        }

        // And the costs named before their range (network costs billed weeks late) are listed under those days
        #expect(
            allRows.contains {
                $0["kind"] == "Card payments: Transaction network costs" && ($0["day"] ?? "") < ($0["range"] ?? "")
            })
        // and the cost naming no day and the one naming an impossible day count on the days they were created
        let first = allRows.filter { $0["range"] == dateText(start) }
        #expect(
            first.contains {
                $0["kind"] == "Radar: Standard" && $0["day"] == dateText(start.addingTimeInterval(Self.day))
            })
        #expect(
            first.contains {
                $0["kind"] == "Card payments: Stripe volume fees"
                    && $0["day"] == dateText(start.addingTimeInterval(2 * Self.day))
                    && $0["currency"] == "usd"
            })
        // and a month of Connect fees is listed under the month's first day
        #expect(
            first.contains { $0["kind"] == "Connect: Account Volume Billing" && $0["day"]?.hasSuffix("-01") == true })
        // And accounts were debited
        #expect(allDebits.count >= 2, "\(allDebits)")
        // And losses were covered for several accounts, and once for an account the collection did not name
        #expect(allLosses.count >= 3, "\(allLosses)")
        #expect(allLosses.contains { $0.hasPrefix(" usd ") }, "a loss under no account: \(allLosses)")
        #expect(unknownCollections == 1)
        // And the on_behalf_of disputes are no unreversed disputes while they are decided
        let nightD = try #require(disputeRows[dateText(moment.addingTimeInterval(-Self.day))])
        #expect(!nightD.contains { $0["dispute_id"] == lostDispute || $0["charge_id"] == openCharge }, "\(nightD)")
        // and the next night, which reads the dispute again, reports the lost one, new, dated on its own day
        let next = try #require(disputeRows[dateText(moment)])
        let lost = try #require(next.first { $0["dispute_id"] == lostDispute }, "\(next)")
        #expect(lost["dispute_status"] == "lost" && lost["status"] == "new", "\(lost)")
        #expect(lost["created_utc"]?.hasPrefix(dateText(moment.addingTimeInterval(-Self.day))) == true, "\(lost)")
        #expect(!next.contains { $0["charge_id"] == openCharge }, "\(next)")

        // And the refunds whose seller the platform debited the next day: owed on night D (40.00 of 100.00)
        let dayD = dateText(moment.addingTimeInterval(-Self.day))
        let exceptionsD = try #require(exceptionRows[dayD]).filter { $0["kind"] == "refund_not_recovered" }
        for charge in [recoveredByDebit, debitedUnlinked, recoveredByTransfer] {
            let row = try #require(exceptionsD.first { $0["object_id"] == charge }, "\(charge) on D")
            #expect(row["expected"] == "40.00" && row["actual"] == "0.00" && row["status"] == "new", "\(row)")
        }
        #expect(nightD.contains { $0["charge_id"] == disputedByDebit })
        // and the next night, which sees the debits: the one naming the charge, itself or through the transfer it was
        // made with, gave the share back (resolved), the one naming nothing recovered nothing in particular (still
        // open), the one naming the dispute recovered it
        let exceptionsNext = try #require(exceptionRows[dateText(moment)]).filter {
            $0["kind"] == "refund_not_recovered"
        }
        #expect(!exceptionsNext.contains { $0["object_id"] == recoveredByDebit }, "\(exceptionsNext)")
        #expect(!exceptionsNext.contains { $0["object_id"] == recoveredByTransfer }, "\(exceptionsNext)")
        // (the charge the unlinked debit does not name is not judged again: its finding stays open in the history)
        #expect(!exceptionsNext.contains { $0["object_id"] == debitedUnlinked }, "\(exceptionsNext)")
        let history = try await Executable.run(
            ["history", "--db", database, "--json"], environment: ["STRIPE_API_KEY": CLI.testKey], logs: folder)
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(history.output.utf8)) as? [[String: Any]])
        let resolved = try #require(
            (runs.first?["details"] as? [String: Any])?["resolved_findings"] as? [[String: String]])
        #expect(resolved.contains { $0["kind"] == "refund_not_recovered" && $0["object_id"] == recoveredByDebit })
        #expect(resolved.contains { $0["kind"] == "refund_not_recovered" && $0["object_id"] == recoveredByTransfer })
        #expect(!resolved.contains { $0["object_id"] == debitedUnlinked }, "\(resolved)")
        #expect(resolved.contains { $0["kind"] == "unreversed_dispute" })
        // and the debits naming a charge no one made are listed by the runs of their ranges
        let unmatched = runs.flatMap {
            ($0["details"] as? [String: Any])?["unmatched_debit_links"] as? [[String: String]] ?? []
        }
        #expect(
            !unmatched.isEmpty && unmatched.allSatisfy { $0["link"]?.hasPrefix("ch_gone_") == true }, "\(unmatched)")
        #expect(!next.contains { $0["charge_id"] == disputedByDebit }, "\(next)")
        try await earlier.shutdown()
        try await later.shutdown()
    }
}
