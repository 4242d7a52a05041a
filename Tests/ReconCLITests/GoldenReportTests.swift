import ConnectReconTestSupport
import Foundation
import Sandbox
import Testing

/// The reports of one fixed run, pinned byte for byte: a refactoring must keep every CSV file as it is; a change
/// meant to alter a report updates the digest of that file on purpose, and says so in its commit.
@Suite("Golden digests of the reports", .serialized)
struct GoldenReportTests {
    /// File → FNV-1a (64 bits) of its bytes. To change them on purpose, run this suite and copy what it prints.
    static let pinned: [String: String] = [
        "balance.csv": "218913413c967a7b", "connected_accounts.csv": "72a64b4e7226ef7e",
        "exceptions.csv": "7938c2423146df4c", "ledger.csv": "cca208d84fc2feaa",
        "payout_transactions.csv": "d327eb77214b1aea", "payouts.csv": "f83eea9277944974",
        "platform_fees.csv": "b14046b3cccc4f15", "skipped_transfers.csv": "8272dd891c2139a1",
        "stripe_costs.csv": "187221ac33c23257", "summary.csv": "734e48d462f08d49",
        "transfer_groups.csv": "07bb1c7419208dfe", "unreversed_disputes.csv": "773f3476c286d984",
    ]

    @Test("run writes the same bytes into every CSV file, and reconcile from the history writes them again")
    func theReportsAreTheSameBytes() async throws {
        // Given the sandbox world seed 42 of 400 charges over ten days, run over all of it at CLI.now
        let sandbox = try await SandboxCommandLine.start(charges: 400, days: 10)
        let folder = sandbox.folder
        func arguments(_ command: String, out: String) -> [String] {
            sandbox.arguments(
                [command], from: "2026-11-01", to: "2026-11-11", out: out, database: folder.path("history.sqlite"))
        }

        // When the range is run, then reconciled offline into another folder
        let run = await sandbox.run(arguments("run", out: "run"))
        #expect(run.status == 0, "\(run.error)")
        try await sandbox.server.shutdown()
        let offline = await CLI.run(arguments("reconcile", out: "offline"))
        #expect(offline.status == 0, "\(offline.error)")

        // Then each CSV file has the pinned bytes (the offline one with the findings `open`, as a second run's)
        let written = folder.path("run") + "/2026-11-01_2026-11-11"
        var digests: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: written) where name.hasSuffix(".csv") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: written + "/" + name))
            digests[name] = FNV1aDigest(bytes).hex
            let again = try Data(
                contentsOf: URL(fileURLWithPath: folder.path("offline") + "/2026-11-01_2026-11-11/" + name))
            let reopened = String(decoding: again, as: UTF8.self).replacingOccurrences(of: ",open\n", with: ",new\n")
            #expect(reopened == String(decoding: bytes, as: UTF8.self), "\(name): reconcile differs from run")
        }
        #expect(digests.count == 12)
        let printed = digests.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }
        #expect(
            digests == Self.pinned,
            "the reports changed; if that is meant, pin: [\(printed.joined(separator: ", "))]")
    }
}
