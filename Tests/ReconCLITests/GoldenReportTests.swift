import ConnectReconTestSupport
import Foundation
import Sandbox
import Testing

/// The reports of one fixed run, pinned byte for byte: a refactoring must keep every CSV file as it is; a change
/// meant to alter a report updates the digest of that file on purpose, and says so in its commit.
@Suite("Golden digests of the reports", .serialized)
struct GoldenReportTests {
    /// File → FNV-1a (64 bits) of its bytes. To change them on purpose, run this suite and copy what it prints.
    static let pinned = [
        "connected_accounts.csv": "37eb9176394120c1", "exceptions.csv": "97435bb78ea51761",
        "ledger.csv": "b24acf77966a1f56", "payout_transactions.csv": "9e2702205a60b190",
        "payouts.csv": "0a46a0aa1041fdc2", "platform_fees.csv": "84fe700c3d5529c9",
        "skipped_transfers.csv": "94259a3aed61e92d", "summary.csv": "f9fd90d5e61a7aad",
        "unreversed_disputes.csv": "593f7d1fd87071e6",
    ]

    @Test("run writes the same bytes into every CSV file, and reconcile from the history writes them again")
    func theReportsAreTheSameBytes() async throws {
        // Given the sandbox world seed 42 of 400 charges over ten days, run over all of it at CLI.now
        var options = SandboxOptions()
        options.charges = 400
        options.days = 10
        let server = try await SandboxServer.start(options)
        let folder = try TemporaryFolder()
        try folder.write("config.yaml", "")
        let arguments = [
            "--config", folder.path("config.yaml"), "--from", "2026-11-01", "--to", "2026-11-11", "--db",
            folder.path("history.sqlite"),
        ]
        let environment = ["STRIPE_API_KEY": CLI.testKey]

        // When the range is run, then reconciled offline into another folder
        let run = await CLI.run(
            ["run", "--out", folder.path("run"), "--api-base", server.baseURL.absoluteString] + arguments,
            environment: environment)
        #expect(run.status == 0, "\(run.error)")
        try await server.shutdown()
        let offline = await CLI.run(["reconcile", "--out", folder.path("offline")] + arguments)
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
        #expect(digests.count == 9)
        let printed = digests.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }
        #expect(
            digests == Self.pinned,
            "the reports changed; if that is meant, pin: [\(printed.joined(separator: ", "))]")
    }
}
