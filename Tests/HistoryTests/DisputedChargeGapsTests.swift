import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// A disputed charge's disputes (docs/EXTRACTION.md): a charge of the range that Stripe says was disputed (`disputed:
/// true`) has its disputes listed by charge while the history holds none of them.
@Suite("History gaps: disputed charges")
struct DisputedChargeGapsTests {
    static let from = TransferGroupGapsTests.from
    static let to = TransferGroupGapsTests.to

    static func charge(_ id: String, created: Int64 = from + 3_600, disputed: Bool) -> StoredObject<ChargeFacts> {
        StoredObject(
            facts: ChargeFacts(
                id: id, created: created, currency: .usd, amount: 1_000, amountCaptured: 1_000, amountRefunded: 0,
                status: .succeeded, captured: true, paymentIntentID: nil, transferID: nil, applicationFeeID: nil,
                applicationFeeAmount: nil, destinationAccountID: "acct_1", transferDataAmount: nil,
                balanceTransactionID: nil, livemode: false, disputed: disputed),
            rawJSON: #"{"id":"\#(id)","disputed":\#(disputed)}"#)
    }

    @Test(
        "a disputed charge of the range has its disputes listed until one is stored; an undisputed one never, on PostgreSQL",
        .postgreSQLServer)
    func disputedChargesWithoutDisputesOnPostgreSQL() async throws {
        try await disputedChargesWithoutDisputes(backend: .postgreSQL)
    }

    @Test(
        "a disputed charge of the range has its disputes listed until one is stored; an undisputed one never",
        arguments: [TestHistoryBackend.sqlite])
    func disputedChargesWithoutDisputes(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        // Given two disputed charges of the range, one undisputed, and a disputed one created before the range
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = [
            Self.charge("ch_a", disputed: true), Self.charge("ch_b", disputed: true),
            Self.charge("ch_calm", disputed: false),
            Self.charge("ch_before", created: Self.from - 86_400, disputed: true),
        ]
        try await store.objects.write(batch, run: run, now: Self.to + 600)

        // Then the range's disputed charges have their disputes listed
        #expect(
            try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [run]).chargeDisputeLists == [
                "ch_a", "ch_b",
            ])

        // When a dispute of one of them is stored, its charge's disputes are no longer a gap
        var dispute = ObjectLists()
        dispute[stored: DisputeFacts.self] = [
            StoredObject(
                facts: DisputeFacts(
                    id: "dp_a", chargeID: "ch_a", created: Self.from + 7_200, currency: .usd, amount: 1_000,
                    status: "needs_response", balanceTransactionIDs: []),
                rawJSON: #"{"id":"dp_a"}"#)
        ]
        try await store.objects.write(dispute, run: run, now: Self.to + 600)
        #expect(try await store.gaps.inRange(from: Self.from, to: Self.to, chain: [run]).chargeDisputeLists == ["ch_b"])
    }
}
