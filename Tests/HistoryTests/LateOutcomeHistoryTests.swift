import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// The history's side of late outcomes (docs/EXTRACTION.md): which objects of the look-back window are read again,
/// which reads found a change, which late outcomes a reconcile judges, and which earlier reports they put out of date.
@Suite("Late outcomes in the history")
struct LateOutcomeHistoryTests {
    /// The range is the day 2026-11-21; the look-back window the 14 days before it.
    static let from: Int64 = 1_795_219_200
    static let to: Int64 = from + 86_400
    static let window = (from - 14 * 86_400)..<from
    static let dayBefore = from - 86_400 + 3_600

    static func stored(_ charge: ChargeFacts) -> StoredObject<ChargeFacts> {
        StoredObject(facts: charge, rawJSON: #"{"id":"\#(charge.id)","status":"\#(charge.status.rawValue)"}"#)
    }

    static func chargeFacts(_ id: String, status: ChargeStatus, created: Int64 = dayBefore) -> ChargeFacts {
        var facts = charge(id, created: created).facts
        facts.status = status
        return facts
    }

    static func refund(_ id: String, status: RefundStatus) -> StoredObject<RefundFacts> {
        StoredObject(
            facts: RefundFacts(
                id: id, chargeID: "ch_done", created: dayBefore + 60, currency: .usd, amount: 100, status: status,
                transferReversalID: "trr_1", balanceTransactionID: "txn_re"),
            rawJSON: #"{"id":"\#(id)","status":"\#(status.rawValue)"}"#)
    }

    @Test(
        "a run reads again only what can still change, finds what changed, and the reconcile judges it once, on PostgreSQL",
        .postgreSQLServer)
    func readAgainFindChangedJudgeOnceOnPostgreSQL() async throws {
        try await readAgainFindChangedJudgeOnce(backend: .postgreSQL)
    }

    @Test(
        "a run reads again only what can still change, finds what changed, and the reconcile judges it once",
        arguments: [TestHistoryBackend.sqlite])
    func readAgainFindChangedJudgeOnce(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        // Given a nightly run of the day before that stored a pending charge, a settled one, a pending refund, a
        // failed one, and a charge older than the look-back window that is still pending
        let nightly = try store.runs.beginRun(start("run", from: Self.from - 86_400, to: Self.from)).runID
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = [
            Self.stored(Self.chargeFacts("ch_pending", status: .pending)),
            Self.stored(Self.chargeFacts("ch_done", status: .succeeded)),
            Self.stored(Self.chargeFacts("ch_ancient", status: .pending, created: Self.window.lowerBound - 60)),
        ]
        batch[stored: RefundFacts.self] = [
            Self.refund("re_pending", status: .pending), Self.refund("re_failed", status: .failed),
        ]
        try await store.objects.write(batch, run: nightly, now: Self.from)
        try store.runs.finishRun(nightly, status: .completed, finishedAt: Self.from + 600, message: nil, details: nil)

        // When tonight's run plans its reads of the look-back window
        let tonight = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        let plan = try await store.gaps.planLateReads(
            run: tonight, window: Self.window, now: Self.to + 600, grace: 3_600)

        // Then it reads again the pending charge and the pending refund, nothing final and nothing older
        #expect(plan.objects[.charge]?.map(\.id) == ["ch_pending"])
        #expect(plan.objects[.refund]?.map(\.id) == ["re_pending"])
        #expect(plan.objects[.dispute] == nil && plan.objects[.payout] == nil)
        // and knows what a list of the window would page: the charges from the oldest pending one on
        #expect(plan.listed[.charge] == 2)

        // When the read finds the charge succeeded and the refund still pending
        var read = ObjectLists()
        read[stored: ChargeFacts.self] = [Self.stored(Self.chargeFacts("ch_pending", status: .succeeded))]
        read[stored: RefundFacts.self] = [Self.refund("re_pending", status: .pending)]
        try await store.objects.write(read, run: tonight, now: Self.to + 600)
        let changed = try await store.gaps.recordLateOutcomes(run: tonight, now: Self.to + 600, grace: 3_600)

        // Then one late outcome is recorded, and the reconcile of tonight's range judges it
        #expect(changed == 1)
        let source = try await store.runs.lateOutcomeSource(from: Self.from, to: Self.to, run: tonight)
        #expect(source == tonight)
        let selection = LateOutcomeSelection(window: Self.window, source: source)
        #expect(try store.gaps.lateOutcomes(selection) == JudgedObjects(.charge, ["ch_pending"]))
        // and the nightly report of the day before is out of date
        let outOfDate = try await store.runs.outOfDateRanges(selection, run: tonight)
        #expect(outOfDate.map(\.from) == [Self.from - 86_400])
        #expect(outOfDate.map(\.to) == [Self.from])

        // When tonight's reconcile records its findings, the late outcome is judged
        _ = try await store.runs.recordFindings([], run: tonight, from: Self.from, to: Self.to, late: selection)
        try store.runs.finishRun(tonight, status: .completed, finishedAt: Self.to + 900, message: nil, details: nil)

        // Then a later run of another range does not judge it again, and an offline reconcile of tonight's range
        // (whose source is tonight's run) still does
        let next = try store.runs.beginRun(start("run", from: Self.to, to: Self.to + 86_400)).runID
        let nextWindow = (Self.to - 14 * 86_400)..<Self.to
        let nextSelection = LateOutcomeSelection(
            window: nextWindow,
            source: try await store.runs.lateOutcomeSource(from: Self.to, to: Self.to + 86_400, run: next))
        #expect(try store.gaps.lateOutcomes(nextSelection) == JudgedObjects())
        try store.runs.finishRun(next, status: .completed, finishedAt: Self.to + 86_400, message: nil, details: nil)
        let offline = try store.runs.beginRun(start("reconcile", from: Self.from, to: Self.to), resume: false).runID
        #expect(try await store.runs.lateOutcomeSource(from: Self.from, to: Self.to, run: offline) == tonight)
        #expect(
            try store.gaps.lateOutcomes(LateOutcomeSelection(window: Self.window, source: tonight))
                == JudgedObjects(.charge, ["ch_pending"]))
    }

    @Test(
        "a charge read while young with its transfer missing is read again and changed once it is no longer young, on PostgreSQL",
        .postgreSQLServer)
    func youngChargeIsReadAgainOnPostgreSQL() async throws { try await youngChargeIsReadAgain(backend: .postgreSQL) }

    @Test(
        "a charge read while young with its transfer missing is read again and changed once it is no longer young",
        arguments: [TestHistoryBackend.sqlite])
    func youngChargeIsReadAgain(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        // Given a charge succeeded fifteen minutes before the nightly run read it (five minutes after midnight),
        // with no transfer yet
        var nightlyStart = try start("run", from: Self.from - 86_400, to: Self.from)
        nightlyStart.startedAt = Self.from + 300
        let nightly = try store.runs.beginRun(nightlyStart).runID
        var young = Self.chargeFacts("ch_young", status: .succeeded, created: Self.from - 600)
        young.transferID = nil
        young.destinationAccountID = "acct_1"
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = [Self.stored(young)]
        try await store.objects.write(batch, run: nightly, now: Self.from)
        try store.runs.finishRun(nightly, status: .completed, finishedAt: Self.from + 400, message: nil, details: nil)

        // When tonight's run plans, then reads it unchanged a day later
        let tonight = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        let plan = try await store.gaps.planLateReads(
            run: tonight, window: Self.window, now: Self.to + 600, grace: 3_600)
        #expect(plan.objects[.charge]?.map(\.id) == ["ch_young"])
        try await store.objects.write(batch, run: tonight, now: Self.to + 600)

        // Then its state changed: it is no longer young, so the rules judge it now (a skipped transfer, say)
        #expect(try await store.gaps.recordLateOutcomes(run: tonight, now: Self.to + 600, grace: 3_600) == 1)
    }

    @Test(
        "what an interrupted run read again is read again by the next run, with the state before the first read, on PostgreSQL",
        .postgreSQLServer)
    func interruptedRunsReadsCarryOverOnPostgreSQL() async throws {
        try await interruptedRunsReadsCarryOver(backend: .postgreSQL)
    }

    @Test(
        "what an interrupted run read again is read again by the next run, with the state before the first read",
        arguments: [TestHistoryBackend.sqlite])
    func interruptedRunsReadsCarryOver(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let nightly = try store.runs.beginRun(start("run", from: Self.from - 86_400, to: Self.from)).runID
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = [Self.stored(Self.chargeFacts("ch_pending", status: .pending))]
        try await store.objects.write(batch, run: nightly, now: Self.from)
        try store.runs.finishRun(nightly, status: .completed, finishedAt: Self.from, message: nil, details: nil)

        // Given tonight's run read the charge succeeded, then died before its report
        let died = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        _ = try await store.gaps.planLateReads(run: died, window: Self.window, now: Self.to + 600, grace: 3_600)
        var read = ObjectLists()
        read[stored: ChargeFacts.self] = [Self.stored(Self.chargeFacts("ch_pending", status: .succeeded))]
        try await store.objects.write(read, run: died, now: Self.to + 600)
        try store.runs.finishRun(died, status: .failed, finishedAt: Self.to + 700, message: "killed", details: nil)

        // When the next run plans: the history holds the charge as succeeded, yet it is read again, and changed
        let retry = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        let plan = try await store.gaps.planLateReads(run: retry, window: Self.window, now: Self.to + 900, grace: 3_600)
        #expect(plan.objects[.charge]?.map(\.id) == ["ch_pending"])
        #expect(try await store.gaps.recordLateOutcomes(run: retry, now: Self.to + 900, grace: 3_600) == 1)
    }

    @Test(
        "a paid payout is read again until 10 days after its arrival (Stripe: it may still fail), and not after, on PostgreSQL",
        .postgreSQLServer)
    func paidPayoutsAreReadAgainForTenDaysOnPostgreSQL() async throws {
        try await paidPayoutsAreReadAgainForTenDays(backend: .postgreSQL)
    }

    @Test(
        "a paid payout is read again until 10 days after its arrival (Stripe: it may still fail), and not after",
        arguments: [TestHistoryBackend.sqlite])
    func paidPayoutsAreReadAgainForTenDays(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        // Given three automatic payouts of the window: paid, arrived 3 days before tonight; paid, arrived 12 days
        // before; failed
        let nightly = try store.runs.beginRun(start("run", from: Self.from - 86_400, to: Self.from)).runID
        func payout(_ id: String, status: PayoutStatus, arrival: Int64) -> StoredObject<PayoutFacts> {
            StoredObject(
                facts: PayoutFacts(
                    id: id, created: arrival - 2 * 86_400, currency: .usd, amount: 1_000, arrivalDate: arrival,
                    status: status, automatic: true, balanceTransactionID: nil, failureBalanceTransactionID: nil,
                    failureCode: nil, livemode: false, reconciliationStatus: .completed),
                rawJSON: #"{"id":"\#(id)"}"#)
        }
        var batch = ObjectLists()
        batch[stored: PayoutFacts.self] = [
            payout("po_recent", status: .paid, arrival: Self.to - 3 * 86_400),
            payout("po_old", status: .paid, arrival: Self.to - 12 * 86_400),
            payout("po_failed", status: .failed, arrival: Self.to - 3 * 86_400),
        ]
        try await store.objects.write(batch, run: nightly, now: Self.from)
        try store.runs.finishRun(nightly, status: .completed, finishedAt: Self.from, message: nil, details: nil)

        // When tonight's run plans its reads
        let tonight = try store.runs.beginRun(start("run", from: Self.from, to: Self.to)).runID
        let plan = try await store.gaps.planLateReads(run: tonight, window: Self.window, now: Self.to, grace: 3_600)

        // Then only the payout paid 3 days ago is read again
        #expect(plan.objects[.payout]?.map(\.id) == ["po_recent"])
    }
}
