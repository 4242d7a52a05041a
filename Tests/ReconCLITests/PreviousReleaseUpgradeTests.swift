import ConnectReconTestSupport
import Foundation
import ReconCore
import TestSupport
import Testing

@testable import History

/// A history written by the previous release (schema v5) opens and upgrades in place, and the range it extracted
/// reconciles the same afterwards, without the API.
///
/// `Fixtures/PreviousRelease` holds what the previous release (commit 95bed07) wrote for 2026-11-03 … 2026-11-06
/// of the sandbox world `--seed 42 --charges 300 --start 2026-11-01 --days 10`: its history (`history-v5.sqlite`,
/// vacuumed) and its nine CSV files. See `Fixtures/PreviousRelease/README.md` for the commands.
@Suite("Upgrading a history written by the previous release", .serialized)
struct PreviousReleaseUpgradeTests {
    static let range = ["--from", "2026-11-03", "--to", "2026-11-06"]
    /// The columns this release added to the reports (docs/REPORTS.md): the rest must be byte for byte the previous
    /// release's.
    static let addedColumns: Set<String> = [
        "application_fee_currency", "balance_type", "reconciliation_status", "pending_charges", "pending_amount",
        "transfer_groups", "platform_take", "type", "stripe_costs", "account_debits", "losses_covered",
    ]
    static let findingFiles: Set<String> = ["skipped_transfers.csv", "unreversed_disputes.csv", "exceptions.csv"]

    static func fixture(_ path: String) throws -> URL {
        let folder = try #require(
            Bundle.module.url(forResource: "Fixtures", withExtension: nil), "the Fixtures resource is missing")
        return folder.appendingPathComponent("PreviousRelease").appendingPathComponent(path)
    }

    @Test("the previous release's history upgrades in place and reconciles its range to the same reports")
    func previousReleaseHistoryReconcilesTheSame() async throws {
        // Given a copy of the history the previous release wrote
        let scratch = try TemporaryFolder()
        let database = scratch.url.appendingPathComponent("history.sqlite").path
        try FileManager.default.copyItem(atPath: try Self.fixture("history-v5.sqlite").path, toPath: database)
        let out = scratch.url.appendingPathComponent("Reports").path

        // When this release reconciles its range from it, offline
        let result = await CLI.run(["reconcile", "--db", database, "--out", out] + Self.range)

        // Then it upgraded the history in place and kept every object and the earlier run
        #expect(result.status == 0, "\(result.error)")
        let store = try HistoryStore.open(path: database)
        #expect(try store.runs.list().map(\.command) == ["reconcile", "run"])
        let transactions = try store.objects.facts(BalanceTransactionFacts.self, createdFrom: 0, to: .max)
        #expect(transactions.count > 100)
        // And the new fields came from the stored raw JSON (this sandbox wrote `payments` and `completed`)
        #expect(transactions.allSatisfy { $0.balanceType == "payments" })
        let payouts = try store.objects.facts(PayoutFacts.self, createdFrom: 0, to: .max)
        #expect(!payouts.isEmpty)
        #expect(payouts.allSatisfy { $0.reconciliationStatus == "completed" })

        // And its stored findings kept their status (each still reported by the earlier run) and got the object whose
        // judging raised them, one of the range's; one is resolved: a transfer funded by a charge that is not a
        // destination charge is a separately transferred charge now (docs/RULES.md), no exception
        if SQLiteShell.isAvailable {
            let findings = try #require(
                try SQLiteShell.run(
                    database,
                    "SELECT COUNT(*), SUM(resolved_run IS NULL), SUM(reported_run IS NOT NULL), "
                        + "SUM(subject_created >= 1793664000 AND subject_created < 1793923200) FROM findings",
                    readOnly: true))
            #expect(findings.trimmingCharacters(in: .whitespacesAndNewlines) == "19|18|19|19")
        }

        // And every report holds the previous release's rows: the same bytes once this release's added columns
        // are left out, with the findings `open` (the previous release's run saw them first)
        let folder = URL(fileURLWithPath: out).appendingPathComponent("2026-11-03_2026-11-06")
        let previous = try Self.fixture("reports")
        let names = try FileManager.default.contentsOfDirectory(atPath: previous.path).filter { $0.hasSuffix(".csv") }
        #expect(names.count == 9, "transfer_groups.csv is new")
        let groupTransfer = (id: "tr_1sAGLHtHg4A000001XhEHTUx", account: "acct_1sAGLHtHg0062P7H")
        for name in names.sorted() {
            let before = try String(contentsOf: previous.appendingPathComponent(name), encoding: .utf8)
            let after = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            var expected = before
            if Self.findingFiles.contains(name) {
                expected = before.replacingOccurrences(of: ",new\n", with: ",open\n")
            }
            var written = Self.withoutAddedColumns(after)
            if name == "exceptions.csv" {
                // A refund that reversed nothing became its charge's refund_not_recovered (docs/RULES.md, "Refund
                // recovery"): carried over by migration v10, so still `open`, and nothing else changed
                let (old, kept) = Self.lines(of: expected, kind: "refund_without_transfer_reversal")
                let (new, rest) = Self.lines(of: written, kind: "refund_not_recovered")
                #expect(!old.isEmpty)
                #expect(Set(new.map { CSVFields.split($0)[1] }) == Set(old.map { CSVFields.split($0)[2] }))
                #expect(new.allSatisfy { $0.hasSuffix(",open") })
                (expected, written) = (kept, rest)
                // The transfer of a separately transferred charge is no exception any more
                let (resolved, others) = Self.lines(of: expected, kind: "transfer_source_not_destination_charge")
                #expect(resolved.map { CSVFields.split($0)[1] } == [groupTransfer.id])
                expected = others
            }
            if name == "connected_accounts.csv" {
                // The group's transfer (172.72 usd) counts in its account's statement
                expected = expected.replacingOccurrences(
                    of: "\(groupTransfer.account),usd,4,1296.72,0.00,1296.72,",
                    with: "\(groupTransfer.account),usd,4,1296.72,0.00,1469.44,")
            }
            #expect(written == expected, "\(name)")
        }
    }

    /// The lines of `csv` of exception `kind`, and the text without them.
    static func lines(of csv: String, kind: String) -> (lines: [String], rest: String) {
        let all = csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let matching = all.filter { $0.hasPrefix(kind + ",") }
        return (matching, all.filter { !$0.hasPrefix(kind + ",") }.joined(separator: "\n"))
    }

    /// The CSV text without the columns this release added (no value of those columns holds a comma or a quote).
    static func withoutAddedColumns(_ csv: String) -> String {
        var lines = csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.first else { return csv }
        let dropped = Set(
            header.split(separator: ",").enumerated().filter { addedColumns.contains(String($0.element)) }.map(\.offset)
        )
        guard !dropped.isEmpty else { return csv }
        lines = lines.map { line in
            guard !line.isEmpty else { return line }
            let fields = CSVFields.split(line)
            return fields.enumerated().filter { !dropped.contains($0.offset) }.map(\.element).joined(separator: ",")
        }
        return lines.joined(separator: "\n")
    }
}

/// Splits one CSV line into its fields as written (quotes kept), RFC 4180.
enum CSVFields {
    static func split(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        for character in line {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
