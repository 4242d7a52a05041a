import ConnectReconTestSupport
import Foundation
import ReconCore
import Sandbox
import TestSupport
import Testing

/// Two runs of one range with Stripe moving on in between, as a re-run of a past range meets it: the first run sees
/// Stripe as it was earlier (through ``EarlierStripe``), the second sees it now (the sandbox itself).
@Suite("Stripe moves on between two runs of a range", .serialized)
struct StripeMovesOnTests {
    static let environment = ["STRIPE_API_KEY": CLI.testKey]

    /// A payout created in the range that Stripe has completed, with at least three balance transactions.
    static func completedPayout(_ world: SandboxWorld, from: Int64, to: Int64) throws -> SandboxPayout {
        try #require(
            world.payouts().first {
                $0.reconciliationStatus == "completed" && $0.balanceTransactionIDs.count >= 3 && $0.created >= from
                    && $0.created < to
            }, "the small world has a completed payout in the range")
    }

    /// A refund created in the range that failed after reversing the transfer, with its charge and failure.
    static func failedRefund(_ server: SandboxServer, from: Int64, to: Int64) throws -> EarlierStripe.UnfailedRefund {
        let connection = try WireConnection(port: server.port, key: CLI.testKey)
        for chargeID in server.world.ids(for: .failedRefundReversed) {
            for refund in try connection.list("/v1/refunds?charge=\(chargeID)") {
                guard refund["status"] as? String == "failed", refund["transfer_reversal"] is String,
                    let created = (refund["created"] as? NSNumber)?.int64Value, created >= from, created < to,
                    let id = refund["id"] as? String, let amount = (refund["amount"] as? NSNumber)?.int64Value,
                    let failure = refund["failure_balance_transaction"] as? String
                else { continue }
                return EarlierStripe.UnfailedRefund(
                    refundID: id, chargeID: chargeID, amount: amount, failureTransactionID: failure)
            }
        }
        Issue.record("the small world has no refund that failed after reversing its transfer in the range")
        throw CancellationError()
    }

    /// The data lines of a report file.
    static func lines(_ folder: TemporaryFolder, _ file: String) throws -> [String] {
        let text = try String(
            contentsOfFile: SmallWorld.reportFolder(folder) + "/" + file, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map(String.init)
    }

    @Test("a payout still being reconciled and a refund not failed yet: the next run reads them again and judges them")
    func theNextRunSeesWhatStripeDidSince() async throws {
        let folder = try TemporaryFolder()
        // SmallWorld's range, 2026-11-01 … 2026-11-06
        let from: Int64 = 1_793_491_200
        let to = from + 5 * 86_400
        try await SandboxServer.with(SmallWorld.options(charges: 300)) { server in
            let payout = try Self.completedPayout(server.world, from: from, to: to)
            let refund = try Self.failedRefund(server, from: from, to: to)
            let arguments = try SmallWorld.arguments(server: nil, folder: folder)

            // Given a first run while Stripe was still reconciling the payout (its list partial) and the refund had
            // not failed yet
            let first = try await EarlierStripe.with(
                server, refund: refund, inProgressPayout: (payout.id, 2)
            ) { proxy in
                await CLI.run(arguments + ["--api-base", proxy.baseURL], environment: Self.environment)
            }
            #expect(first.status == 0, "\(first.error)")
            // Then the payout is shown, not judged: no figures, no transactions of its partial list, no mismatch
            let payoutRow = try #require(try Self.lines(folder, "payouts.csv").first { $0.hasPrefix(payout.id) })
            #expect(payoutRow.hasSuffix(",in_progress,,,,automatic"), "\(payoutRow)")
            #expect(!(try Self.lines(folder, "payout_transactions.csv")).contains { $0.hasPrefix(payout.id) })
            #expect(!(try Self.lines(folder, "exceptions.csv")).contains { $0.contains(",\(payout.id),") })
            // And the refund is no finding yet
            #expect(!(try Self.lines(folder, "exceptions.csv")).contains { $0.contains(refund.refundID) })

            // When the range is run again once Stripe completed the payout and the refund failed
            let second = await CLI.run(
                arguments + ["--api-base", server.baseURL.absoluteString], environment: Self.environment)
            #expect(second.status == 0, "\(second.error)")

            // Then the payout's list was read again and the payout is judged, as the world says
            let row = try #require(try Self.lines(folder, "payouts.csv").first { $0.hasPrefix(payout.id) })
            let count = payout.balanceTransactionIDs.count
            #expect(row.contains(",completed,\(count),"), "\(row)")
            let transactions = try Self.lines(folder, "payout_transactions.csv").filter { $0.hasPrefix(payout.id) }
            #expect(transactions.count == count)
            // And the refund is a changed object of the second run, and a new finding
            let database = folder.path("history.sqlite")
            if let changed = try SQLiteShell.run(
                database, "SELECT changed_run FROM refunds WHERE id = '\(refund.refundID)'")
            {
                #expect(changed == "2", "the refund changed in the second run")
            }
            let finding = try Self.lines(folder, "exceptions.csv").first {
                $0.hasPrefix("failed_refund_not_retransferred,\(refund.refundID),")
            }
            #expect(finding?.hasSuffix(",new") == true, "\(finding ?? "no failed_refund_not_retransferred row")")
        }
    }
}
