import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// The history's side of money moved by hand (docs/RULES.md, "Money moved by hand, across time"): which charges of
/// the look-back window a run's new reversals and transfers move, and what it records of them in `late_reads`.
@Suite("Money moved by hand in the history")
struct MovedByHandHistoryTests {
    /// Day D is 2026-11-20; the run is of 2026-11-21 with the 14 days before it as its look-back window.
    static let dayD: Int64 = 1_795_132_800
    static let from = dayD + 86_400
    static let to = from + 86_400
    static let window = (from - 14 * 86_400)..<from

    static func charge(
        _ id: String, created: Int64 = dayD + 3_600, transfer: String? = nil, destination: String? = nil,
        group: String? = nil
    ) -> StoredObject<ChargeFacts> {
        StoredObject(
            facts: ChargeFacts(
                id: id, created: created, currency: .usd, amount: 10_000, amountCaptured: 10_000, amountRefunded: 0,
                status: .succeeded, captured: true, paymentIntentID: nil, transferID: transfer,
                applicationFeeID: nil, applicationFeeAmount: nil, destinationAccountID: destination,
                transferDataAmount: nil, balanceTransactionID: nil, livemode: false, transferGroup: group),
            rawJSON: #"{"id":"\#(id)"}"#)
    }

    static func transfer(
        _ id: String, created: Int64, source: String? = nil, group: String? = nil
    ) -> StoredObject<TransferFacts> {
        StoredObject(
            facts: TransferFacts(
                id: id, created: created, currency: .usd, amount: 6_000, amountReversed: 0,
                destinationAccountID: "acct_1", sourceTransactionID: source, balanceTransactionID: nil,
                transferGroup: group, disputeIDMetadata: nil, livemode: false),
            rawJSON: #"{"id":"\#(id)"}"#)
    }

    /// A 50.00 refund of `charge`, made on day D.
    static func refund(_ id: String, of charge: String) -> StoredObject<RefundFacts> {
        StoredObject(
            facts: RefundFacts(
                id: id, chargeID: charge, created: dayD + 7_200, currency: .usd, amount: 5_000, status: .succeeded,
                transferReversalID: nil, balanceTransactionID: nil),
            rawJSON: #"{"id":"\#(id)"}"#)
    }

    /// A 100.00 dispute of `charge` opened on day D, needing a response.
    static func dispute(_ id: String, of charge: String) -> StoredObject<DisputeFacts> {
        StoredObject(
            facts: DisputeFacts(
                id: id, chargeID: charge, created: dayD + 7_200, currency: .usd, amount: 10_000,
                status: .needsResponse, balanceTransactionIDs: []),
            rawJSON: #"{"id":"\#(id)"}"#)
    }

    static func reversal(_ id: String, of transfer: String, created: Int64) -> StoredObject<TransferReversalFacts> {
        StoredObject(
            facts: TransferReversalFacts(
                id: id, transferID: transfer, created: created, currency: .usd, amount: 1_000, sourceRefundID: nil,
                balanceTransactionID: nil, disputeIDMetadata: nil),
            rawJSON: #"{"id":"\#(id)"}"#)
    }

    @Test(
        "a reversal or a group transfer seen first tonight moves a charge of a day a completed run extracted, on PostgreSQL",
        .postgreSQLServer)
    func whichChargesMovedOnPostgreSQL() async throws { try await whichChargesMoved(backend: .postgreSQL) }

    @Test(
        "a reversal or a group transfer seen first tonight moves a charge of a day a completed run extracted",
        arguments: [TestHistoryBackend.sqlite])
    func whichChargesMoved(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        // Given day D's night, which stored: a destination charge with a refund; one whose transfer it saw reversed
        // already (early on the 21st); a group's charge with a dispute and its first transfer; a destination charge
        // still settling
        let nightD = try store.runs.beginRun(start("run", from: Self.dayD, to: Self.from)).runID
        var earlier = ObjectLists()
        earlier[stored: ChargeFacts.self] = [
            Self.charge("ch_refunded", transfer: "tr_refunded", destination: "acct_1"),
            Self.charge("ch_seen", transfer: "tr_seen", destination: "acct_1"),
            Self.charge("ch_group", group: "order_1"),
            Self.charge("ch_settling", destination: "acct_1"),
            // and a group's charge of a day no run extracted, brought by another object
            Self.charge("ch_unjudged", created: Self.dayD - 5 * 86_400, group: "order_2"),
        ]
        earlier[stored: TransferFacts.self] = [
            Self.transfer("tr_refunded", created: Self.dayD + 3_700, source: "ch_refunded"),
            Self.transfer("tr_seen", created: Self.dayD + 3_700, source: "ch_seen"),
            Self.transfer("tr_group_1", created: Self.dayD + 3_700, group: "order_1"),
        ]
        earlier[stored: TransferReversalFacts.self] = [
            Self.reversal("trr_seen", of: "tr_seen", created: Self.from + 60)
        ]
        earlier[stored: RefundFacts.self] = [Self.refund("re_refunded", of: "ch_refunded")]
        earlier[stored: DisputeFacts.self] = [Self.dispute("dp_group", of: "ch_group")]
        try await store.objects.write(earlier, run: nightD, now: Self.from + 3_600)
        try store.runs.finishRun(nightD, status: .completed, finishedAt: Self.from + 3_700, message: nil, details: nil)

        // When tonight's run stores the 21st's reversal of the refunded charge's transfer, the group's second
        // transfer, the settling charge's transfer, and a transfer of the unjudged charge's group
        let tonight = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        var moves = ObjectLists()
        moves[stored: TransferReversalFacts.self] = [
            Self.reversal("trr_refunded", of: "tr_refunded", created: Self.from + 600)
        ]
        moves[stored: TransferFacts.self] = [
            Self.transfer("tr_group_2", created: Self.from + 700, group: "order_1"),
            Self.transfer("tr_settling", created: Self.from + 800, source: "ch_settling"),
            Self.transfer("tr_unjudged", created: Self.from + 900, group: "order_2"),
        ]
        try await store.objects.write(moves, run: tonight, now: Self.to + 3_600)
        let moved = try await store.gaps.recordMovedByHand(
            run: tonight, range: Self.from..<Self.to, window: Self.window, chain: [tonight])

        // Then the refunded charge and the group's charge moved, with the refund and the dispute to judge again;
        // not the charge whose reversal day D's night saw, the settling charge (a late outcome of its own) or the
        // charge of a day never extracted
        #expect(moved == 2)
        let rows = try await store.runs.readDatabase { db in
            try db.all(
                "SELECT kind, object_id FROM late_reads WHERE run_id = ? AND changed ORDER BY 1, 2",
                [
                    .integer(tonight)
                ]
            ) { "\(try String(row: $0, at: 0)) \(try String(row: $0, at: 1))" }
        }
        #expect(
            rows == [
                "dispute dp_group", "moved_by_hand ch_group", "moved_by_hand ch_refunded", "refund re_refunded",
            ])
        // and the reconcile judges the refund and the dispute (not the charges), and names day D's report out of date
        let selection = LateOutcomeSelection(window: Self.window, source: tonight)
        let judged = try store.gaps.lateOutcomes(selection)
        #expect(judged[.refund] == ["re_refunded"] && judged[.dispute] == ["dp_group"] && judged[.charge].isEmpty)
        let outOfDate = try await store.runs.outOfDateRanges(selection, run: tonight)
        #expect(outOfDate.map(\.from) == [Self.dayD])
        // and calling it again (a resumed run) finds the same charges
        #expect(
            try await store.gaps.recordMovedByHand(
                run: tonight, range: Self.from..<Self.to, window: Self.window, chain: [tonight]) == 2)
    }

    @Test(
        "an account debit seen first tonight moves the charge it names, by id, PaymentIntent, refund or dispute, on PostgreSQL",
        .postgreSQLServer)
    func debitsMoveOnPostgreSQL() async throws { try await debitsMove(backend: .postgreSQL) }

    @Test(
        "an account debit seen first tonight moves the charge it names, by id, PaymentIntent, refund or dispute",
        arguments: [TestHistoryBackend.sqlite])
    func debitsMove(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        // Given day D's night, which stored four destination charges, each refunded, one with a PaymentIntent and one
        // disputed
        let nightD = try store.runs.beginRun(start("run", from: Self.dayD, to: Self.from)).runID
        var earlier = ObjectLists()
        earlier[stored: ChargeFacts.self] = ["ch_a", "ch_b", "ch_c", "ch_d", "ch_e"].map {
            var charge = Self.charge($0, transfer: "tr_" + $0.dropFirst(3), destination: "acct_1")
            if $0 == "ch_b" { charge.facts.paymentIntentID = "pi_b" }
            return charge
        }
        earlier[stored: RefundFacts.self] = ["a", "b", "c", "e"].map { Self.refund("re_" + $0, of: "ch_" + $0) }
        earlier[stored: DisputeFacts.self] = [Self.dispute("dp_d", of: "ch_d")]
        try await store.objects.write(earlier, run: nightD, now: Self.from + 3_600)
        try store.runs.finishRun(nightD, status: .completed, finishedAt: Self.from + 3_700, message: nil, details: nil)

        // When tonight's run stores account debits naming the first charge, the second's PaymentIntent, the third's
        // refund and the fourth's dispute, and one naming the fifth under a key not configured
        let tonight = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        var debits = ObjectLists()
        debits[stored: ChargeFacts.self] = [
            ("py_1", ["charge": "ch_a"]), ("py_2", ["payment_intent": "pi_b"]), ("py_3", ["refund": "re_c"]),
            ("py_4", ["dispute": "dp_d"]), ("py_5", ["order": "ch_e"]),
        ].map { id, metadata in
            var debit = Self.charge(id, created: Self.from + 600)
            debit.facts.paymentMethodType = ChargeFacts.accountDebitMethod
            debit.facts.sourceID = "acct_1"
            debit.facts.metadata = metadata
            return debit
        }
        try await store.objects.write(debits, run: tonight, now: Self.to + 3_600)
        let moved = try await store.gaps.recordMovedByHand(
            run: tonight, range: Self.from..<Self.to, window: Self.window, chain: [tonight])

        // Then the four named charges moved, with their refunds and dispute to judge again; not the fifth
        #expect(moved == 4)
        let rows = try await store.runs.readDatabase { db in
            try db.all(
                "SELECT kind, object_id FROM late_reads WHERE run_id = ? AND changed ORDER BY 1, 2", [.integer(tonight)]
            ) { "\(try String(row: $0, at: 0)) \(try String(row: $0, at: 1))" }
        }
        #expect(
            rows == [
                "dispute dp_d", "moved_by_hand ch_a", "moved_by_hand ch_b", "moved_by_hand ch_c", "moved_by_hand ch_d",
                "refund re_a", "refund re_b", "refund re_c",
            ])
        // and with `order` among the keys, the fifth too
        #expect(
            try await store.gaps.recordMovedByHand(
                run: tonight, range: Self.from..<Self.to, window: Self.window, chain: [tonight],
                debitLinkKeys: ["order"]) == 1)
    }
}
