import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// The gaps of a range's transfer groups (docs/RULES.md, "Separately transferred charges"): which groups' transfers the
/// extraction lists by `?transfer_group=`, and the balance transactions and reversals of their transfers.
@Suite("History gaps: transfer groups")
struct TransferGroupGapsTests {
    /// The range is the day 2026-11-21; the look-back window the 14 days before it.
    static let from: Int64 = 1_795_219_200
    static let to: Int64 = from + 86_400
    static let window = (from - 14 * 86_400)..<from

    static func charge(
        _ id: String, status: ChargeStatus = .succeeded, created: Int64 = from + 3_600, group: String? = nil,
        intent: String? = nil, destination: String? = nil, transfer: String? = nil
    ) -> StoredObject<ChargeFacts> {
        StoredObject(
            facts: ChargeFacts(
                id: id, created: created, currency: .usd, amount: 1_000, amountCaptured: 1_000, amountRefunded: 0,
                status: status, captured: true, paymentIntentID: intent, transferID: transfer,
                applicationFeeID: nil, applicationFeeAmount: nil, destinationAccountID: destination,
                transferDataAmount: nil, balanceTransactionID: nil, livemode: false, transferGroup: group),
            rawJSON: #"{"id":"\#(id)","status":"\#(status.rawValue)"}"#)
    }

    static func intent(_ id: String, group: String?, destination: String? = nil) -> StoredObject<PaymentIntentFacts> {
        StoredObject(
            facts: PaymentIntentFacts(
                id: id, created: from + 3_500, currency: .usd, amount: 1_000, applicationFeeAmount: nil,
                destinationAccountID: destination, transferDataAmount: nil, status: .succeeded, latestChargeID: nil,
                livemode: false, transferGroup: group),
            rawJSON: #"{"id":"\#(id)"}"#)
    }

    static func transfer(
        _ id: String, created: Int64, group: String? = nil, source: String? = nil, reversed: Int64 = 0
    ) -> StoredObject<TransferFacts> {
        StoredObject(
            facts: TransferFacts(
                id: id, created: created, currency: .usd, amount: 600, amountReversed: reversed,
                destinationAccountID: "acct_1", sourceTransactionID: source, balanceTransactionID: "txn_\(id)",
                transferGroup: group, disputeIDMetadata: nil, livemode: false),
            rawJSON: #"{"id":"\#(id)"}"#)
    }

    @Test(
        "the groups of the range's separately transferred charges are listed, never a destination charge's group_pi_…, on PostgreSQL",
        .postgreSQLServer)
    func groupsOfSeparateChargesOnlyOnPostgreSQL() async throws {
        try await groupsOfSeparateChargesOnly(backend: .postgreSQL)
    }

    @Test(
        "the groups of the range's separately transferred charges are listed, never a destination charge's group_pi_…",
        arguments: [TestHistoryBackend.sqlite])
    func groupsOfSeparateChargesOnly(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = [
            // Separately transferred: its own group; its PaymentIntent's group; tied by source_transaction alone
            Self.charge("ch_own", group: "order_1", intent: "pi_own"),
            Self.charge("ch_intent", intent: "pi_intent"),
            Self.charge("ch_source"),
            // Destination charges: Stripe's own group_pi_… labels (a skipped transfer's charge has no transfer_data)
            Self.charge(
                "ch_dest", group: "group_pi_dest", intent: "pi_dest", destination: "acct_1", transfer: "tr_dest"),
            Self.charge("ch_skipped", group: "group_pi_skipped", intent: "pi_skipped"),
            // Not (yet) a charge of a group: pending; its PaymentIntent not stored yet; created before the range
            Self.charge("ch_pending", status: .pending, group: "order_pending"),
            Self.charge("ch_unknown_intent", group: "order_unknown", intent: "pi_unknown"),
            Self.charge("ch_older", created: Self.from - 20 * 86_400, group: "order_older"),
        ]
        batch[stored: PaymentIntentFacts.self] = [
            Self.intent("pi_own", group: "order_1"), Self.intent("pi_intent", group: "order_2"),
            Self.intent("pi_dest", group: "group_pi_dest", destination: "acct_1"),
            Self.intent("pi_skipped", group: "group_pi_skipped", destination: "acct_1"),
        ]
        // The groups' transfers made after the range, with their balance transactions not stored; one with more
        // reversals than the 10 Stripe embeds; a destination charge's transfer made after it.
        batch[stored: TransferFacts.self] = [
            Self.transfer("tr_own", created: Self.to + 3_600, group: "order_1", reversed: 100),
            Self.transfer("tr_intent", created: Self.from + 7_200, group: "order_2"),
            Self.transfer("tr_source", created: Self.to + 7_200, source: "ch_source"),
            Self.transfer("tr_bonus", created: Self.to + 7_200, group: "order_bonus"),
        ]
        try await store.objects.write(batch, run: run, now: Self.to + 600)

        let gaps = try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [run])

        #expect(gaps.transferGroupLists == ["order_1", "order_2"])
        #expect(gaps.paymentIntents == ["pi_unknown"])
        // The groups' transfers are the range's: their balance transactions (after the range: later objects) and
        // their reversals beyond the 10 embedded are needed; a group with no charge of the range is not.
        #expect(gaps.balanceTransactionsOfLaterObjects == ["txn_tr_own", "txn_tr_source"])
        #expect(gaps.balanceTransactionsOfRangeObjects == ["txn_tr_intent"])
        #expect(gaps.transferReversalLists == ["tr_own"])

        // Once a group was listed in this chain it is no longer a gap; another run of the range lists it again
        try await store.gaps.recordTransferGroupListing("order_1", run: run)
        #expect(
            try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [run]).transferGroupLists == ["order_2"])
        try store.runs.finishRun(run, status: .completed, finishedAt: Self.to + 900, message: nil, details: nil)
        let rerun = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        try await store.objects.write(batch, run: rerun, now: Self.to + 1_200)
        let again = try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [rerun])
        #expect(again.transferGroupLists == ["order_1", "order_2"])
    }

    @Test(
        "a charge of the look-back window whose late outcome changed has its group listed, on PostgreSQL",
        .postgreSQLServer)
    func lateChargesGroupsOnPostgreSQL() async throws { try await lateChargesGroups(backend: .postgreSQL) }

    @Test(
        "a charge of the look-back window whose late outcome changed has its group listed",
        arguments: [TestHistoryBackend.sqlite])
    func lateChargesGroups(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        // Given the day before's run that stored a pending bank debit of a group and a settled charge of another
        let dayBefore = Self.from - 86_400 + 3_600
        let nightly = try store.runs.beginRun(start("run", from: Self.from - 86_400, to: Self.from)).runID
        var earlier = ObjectLists()
        earlier[stored: ChargeFacts.self] = [
            Self.charge("ch_late", status: .pending, created: dayBefore, group: "order_late"),
            Self.charge("ch_settled", created: dayBefore, group: "order_settled"),
        ]
        try await store.objects.write(earlier, run: nightly, now: Self.from)
        try store.runs.finishRun(nightly, status: .completed, finishedAt: Self.from + 600, message: nil, details: nil)

        // When tonight's run reads the pending charge again and finds it succeeded
        let tonight = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        _ = try await store.gaps.planLateReads(run: tonight, window: Self.window, now: Self.to + 600, grace: 3_600)
        var read = ObjectLists()
        read[stored: ChargeFacts.self] = [Self.charge("ch_late", created: dayBefore, group: "order_late")]
        try await store.objects.write(read, run: tonight, now: Self.to + 600)
        #expect(try await store.gaps.recordLateOutcomes(run: tonight, now: Self.to + 600, grace: 3_600) == 1)

        // Then its group's transfers are listed, and not those of the charge that settled long ago
        let gaps = try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [tonight])
        #expect(gaps.transferGroupLists == ["order_late"])
    }

    @Test(
        "the groups of the range's refunds' and disputes' older charges are listed whole, without balance transactions, on PostgreSQL",
        .postgreSQLServer)
    func olderChargesGroupsOnPostgreSQL() async throws { try await olderChargesGroups(backend: .postgreSQL) }

    @Test(
        "the groups of the range's refunds' and disputes' older charges are listed whole, without balance transactions",
        arguments: [TestHistoryBackend.sqlite])
    func olderChargesGroups(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        let older = Self.from - 5 * 86_400
        var batch = ObjectLists()
        // A charge of the range in one group, and a charge of five days ago in another, refunded in the range
        batch[stored: ChargeFacts.self] = [
            Self.charge("ch_new", group: "order_new"), Self.charge("ch_old", created: older, group: "order_old"),
        ]
        batch[stored: RefundFacts.self] = [
            StoredObject(
                facts: RefundFacts(
                    id: "re_old", chargeID: "ch_old", created: Self.from + 600, currency: .usd, amount: 400,
                    status: .succeeded, transferReversalID: nil, balanceTransactionID: nil),
                rawJSON: #"{"id":"re_old"}"#)
        ]
        batch[stored: TransferFacts.self] = [
            Self.transfer("tr_old", created: older + 60, group: "order_old", reversed: 100),
            Self.transfer("tr_new", created: Self.to + 60, group: "order_new"),
        ]
        try await store.objects.write(batch, run: run, now: Self.to + 600)

        let gaps = try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [run])

        #expect(gaps.transferGroupLists == ["order_new"])
        #expect(gaps.olderTransferGroupLists == ["order_old"])
        // The older group's reversals are read (beyond the 10 embedded), not its transfers' balance transactions
        #expect(gaps.transferReversalLists == ["tr_old"])
        #expect(gaps.balanceTransactionsOfLaterObjects == ["txn_tr_new"])
        #expect(gaps.balanceTransactionsOfRangeObjects.isEmpty)

        // Once every transfer made after the range was listed, the range's groups are not listed one by one; the
        // older charge's group still is (its transfers were made before the range)
        try await store.gaps.recordTransfersListing(after: Self.to, run: run)
        let after = try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [run])
        #expect(after.transferGroupLists.isEmpty)
        #expect(after.olderTransferGroupLists == ["order_old"])
        try await store.gaps.recordTransferGroupListing("order_old", run: run)
        #expect(
            try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [run]).olderTransferGroupLists.isEmpty)
    }
}
