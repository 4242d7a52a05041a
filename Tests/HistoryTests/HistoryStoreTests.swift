import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// A fresh, empty history: a database file in a temporary folder, or a new database on the PostgreSQL test server.
final class TemporaryDatabase {
    let folder: URL
    /// The file's path, or the database's URL (with its password).
    let path: String
    let location: HistoryLocation

    init(_ backend: TestHistoryBackend = .sqlite) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path =
            backend == .sqlite
            ? folder.appendingPathComponent("history.sqlite").path : try TestHistoryBackend.newDatabase()
        location = try HistoryLocation(path)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// The history as errors show it (a URL's password hidden).
    var shown: String { location.description }

    /// Opens (creating and migrating) the history.
    func open() throws -> HistoryStore { try HistoryStore.open(location) }
}

func charge(_ id: String, amount: Int64 = 1000, refunded: Int64 = 0, created: Int64 = 1_795_132_800) -> StoredObject<
    ChargeFacts
> {
    let facts = ChargeFacts(
        id: id, created: created, currency: .usd, amount: amount, amountCaptured: amount, amountRefunded: refunded,
        status: "succeeded", captured: true, paymentIntentID: "pi_\(id)", transferID: "tr_\(id)",
        applicationFeeID: nil, applicationFeeAmount: nil, destinationAccountID: "acct_1", transferDataAmount: 877,
        balanceTransactionID: "txn_\(id)", livemode: false)
    return StoredObject(facts: facts, rawJSON: #"{"id":"\#(id)","amount":\#(amount),"amount_refunded":\#(refunded)}"#)
}

func start(_ command: String = "extract", from: Int64 = 1_795_132_800, to: Int64 = 1_795_219_200) throws -> RunStart {
    let range = try ReportingRange(
        from: Date(timeIntervalSince1970: TimeInterval(from)), to: Date(timeIntervalSince1970: TimeInterval(to)),
        timeZone: TimeZone(identifier: "UTC")!)
    return RunStart(
        command: command, range: range, mode: .test, toolVersion: "0.1.0", stripeVersion: "2026-07-29.dahlia",
        apiBase: "http://127.0.0.1:1", startedAt: 1_795_224_600, pid: 4242)
}

@Suite("History store")
struct HistoryStoreTests {
    @Test("the database file is created readable by its owner only")
    func ownerOnly() throws {
        let database = try TemporaryDatabase()
        let store = try HistoryStore.open(path: database.path)
        try store.runs.claimMode(.test)
        let attributes = try FileManager.default.attributesOfItem(atPath: database.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test(
        "re-writing an object updates it in place; a change is recorded against the run that saw it, on PostgreSQL",
        .postgreSQLServer)
    func upsertNeverDuplicatesOnPostgreSQL() async throws { try await upsertNeverDuplicates(backend: .postgreSQL) }

    @Test(
        "re-writing an object updates it in place; a change is recorded against the run that saw it",
        arguments: [TestHistoryBackend.sqlite])
    func upsertNeverDuplicates(backend: TestHistoryBackend) async throws {
        // Given a run that stores two charges
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let first = try store.runs.beginRun(start()).runID
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = [charge("ch_1"), charge("ch_2")]
        #expect(try await store.objects.write(batch, run: first, now: 1) == WriteOutcome(new: 2))
        // (seen again in the same run, as an object embedded in one page and listed in another: counted once)
        #expect(try await store.objects.write(batch, run: first, now: 1) == WriteOutcome())
        try store.runs.finishRun(first, status: .completed, finishedAt: 2, message: nil, details: nil)

        // When a second run sees one charge unchanged and the other refunded
        let second = try store.runs.beginRun(start()).runID
        var later = ObjectLists()
        later[stored: ChargeFacts.self] = [charge("ch_1"), charge("ch_2", refunded: 400)]
        let outcome = try await store.objects.write(later, run: second, now: 3)

        // Then nothing is duplicated, the refund is stored and recorded as a change of the second run
        #expect(outcome == WriteOutcome(updated: 1, unchanged: 1))
        #expect(try store.objects.count(of: .charge) == 2)
        let stored = try store.objects.charges(createdFrom: 0, to: .max)
        #expect(stored.first { $0.id == "ch_2" }?.amountRefunded == 400)
        #expect(try store.objects.rawJSON(of: .charge, id: "ch_2")?.contains(#""amount_refunded":400"#) == true)
        #expect(try store.objects.changes(run: first)[.charge]?.new == 2)
        #expect(try store.objects.changes(run: second)[.charge]?.updated == 1)
        #expect(try store.objects.changes(run: second)[.charge]?.new == 0)
    }

    @Test("a history of schema v3 keeps every object and its JSON when its raw JSON moves to tables of its own")
    func migrationMovesRawJSON() async throws {
        // Given a history written before the raw JSON moved out of the object tables
        let database = try TemporaryDatabase()
        try GRDBTestAccess.createVersion3History(database.path)

        // When this version opens it
        let store = try HistoryStore.open(path: database.path)

        // Then the facts and the JSON are both still there, and the object tables hold no JSON any more
        #expect(try store.objects.charges(createdFrom: 0, to: 100).map(\.id) == ["ch_old"])
        #expect(try store.objects.rawJSON(of: .charge, id: "ch_old") == #"{"id":"ch_old","disputed":true}"#)
        #expect(try store.objects.rawJSON(of: .balanceTransaction, id: "txn_old") == #"{"id":"txn_old"}"#)
        #expect(try !GRDBTestAccess.columns(database.path, table: "charges").contains("raw"))
        #expect(try GRDBTestAccess.columns(database.path, table: "charges_raw") == ["id", "raw"])
        #expect(
            try GRDBTestAccess.indexes(database.path, table: "charges") == [
                "charges_on_account_debits", "charges_on_created", "charges_on_last_seen_run",
                "charges_on_payment_intent_id", "charges_on_transfer_group", "charges_on_transfer_id",
            ])
        #expect(
            try GRDBTestAccess.indexes(database.path, table: "balance_transactions") == [
                "balance_transactions_on_created", "balance_transactions_on_last_seen_run",
                "balance_transactions_on_source_id",
            ])

        // And an unchanged sighting of the object is unchanged, a changed one updated
        let run = try store.runs.beginRun(start(from: 0, to: 100)).runID
        var same = ObjectLists()
        same[stored: BalanceTransactionFacts.self] = [
            StoredObject(
                facts: BalanceTransactionFacts(
                    id: "txn_old", created: 10, currency: .usd, amount: 1000, fee: 59, net: 941, type: "charge",
                    reportingCategory: "charge", sourceID: nil, exchangeRate: nil, status: "available"),
                rawJSON: #"{"id":"txn_old"}"#)
        ]
        #expect(try await store.objects.write(same, run: run, now: 2) == WriteOutcome(unchanged: 1))
        var changed = ObjectLists()
        changed[stored: ChargeFacts.self] = [charge("ch_old", created: 10)]
        #expect(try await store.objects.write(changed, run: run, now: 2) == WriteOutcome(updated: 1))
    }

    @Test("facts come back exactly as stored, optional fields included, on PostgreSQL", .postgreSQLServer)
    func roundTripOnPostgreSQL() async throws { try await roundTrip(backend: .postgreSQL) }

    @Test("facts come back exactly as stored, optional fields included", arguments: [TestHistoryBackend.sqlite])
    func roundTrip(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start()).runID
        var batch = ObjectLists()
        var noTransfer = charge("ch_9").facts
        noTransfer.transferID = nil
        noTransfer.destinationAccountID = nil
        noTransfer.transferDataAmount = nil
        noTransfer.currency = .jpy
        batch[stored: ChargeFacts.self] = [charge("ch_1"), StoredObject(facts: noTransfer, rawJSON: "{}")]
        batch[stored: DisputeFacts.self] = [
            StoredObject(
                facts: DisputeFacts(
                    id: "dp_1", chargeID: "ch_1", created: 5, currency: .usd, amount: 1000, status: "lost",
                    balanceTransactionIDs: ["txn_a", "txn_b"]), rawJSON: "{}")
        ]
        batch[stored: BalanceTransactionFacts.self] = [
            StoredObject(
                facts: BalanceTransactionFacts(
                    id: "txn_a", created: 5, currency: .usd, amount: -1000, fee: 1500, net: -2500, type: "adjustment",
                    reportingCategory: "dispute", sourceID: "dp_1", exchangeRate: 1.0845, status: "available"),
                rawJSON: "{}")
        ]
        try await store.objects.write(batch, run: run, now: 1)
        let charges = try store.objects.charges(createdFrom: 0, to: .max)
        #expect(Set(charges) == Set([charge("ch_1").facts, noTransfer]))
        #expect(
            try store.objects.facts(DisputeFacts.self, createdFrom: 0, to: 10) == [
                batch[stored: DisputeFacts.self][0].facts
            ])
        #expect(
            try store.objects.facts(BalanceTransactionFacts.self, createdFrom: 0, to: 10) == [
                batch[stored: BalanceTransactionFacts.self][0].facts
            ])
    }

    @Test("test and live objects never share a database, on PostgreSQL", .postgreSQLServer)
    func modeMismatchOnPostgreSQL() throws { try modeMismatch(backend: .postgreSQL) }

    @Test("test and live objects never share a database", arguments: [TestHistoryBackend.sqlite])
    func modeMismatch(backend: TestHistoryBackend) throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        try store.runs.claimMode(.test)
        try store.runs.claimMode(.test)
        #expect(throws: HistoryError.modeMismatch(path: database.shown, stored: "test", requested: "live")) {
            try store.runs.claimMode(.live)
        }
        #expect(HistoryError.modeMismatch(path: "x", stored: "test", requested: "live").isBadInput)
    }

    @Test("a file that is not a database is reported as such")
    func corruptFile() throws {
        let database = try TemporaryDatabase()
        try Data(repeating: 0x41, count: 8_192).write(to: URL(fileURLWithPath: database.path))
        #expect(throws: HistoryError.corrupt(path: database.path)) { try HistoryStore.open(path: database.path) }
    }

    @Test("a database from a newer schema is refused")
    func newerSchema() throws {
        let database = try TemporaryDatabase()
        _ = try HistoryStore.open(path: database.path)
        try GRDBTestAccess.recordUnknownMigration(database.path, identifier: "v99-future")
        #expect(throws: HistoryError.newerSchema(path: database.path)) { try HistoryStore.open(path: database.path) }
    }

    @Test("a folder that does not exist cannot hold the database")
    func missingFolder() {
        #expect(throws: HistoryError.self) { try HistoryStore.open(path: "/nonexistent/folder/history.sqlite") }
    }

    @Test(
        "an interrupted run's finished windows are taken over by the next run of the same range, on PostgreSQL",
        .postgreSQLServer)
    func resumeFromCheckpointsOnPostgreSQL() async throws { try await resumeFromCheckpoints(backend: .postgreSQL) }

    @Test(
        "an interrupted run's finished windows are taken over by the next run of the same range",
        arguments: [TestHistoryBackend.sqlite])
    func resumeFromCheckpoints(backend: TestHistoryBackend) async throws {
        // Given a run that finished one window and then died (still marked running)
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let crashed = try store.runs.beginRun(start()).runID
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = [charge("ch_1")]
        let window = ExtractionWindow(resource: "charges", from: 1_795_132_800, to: 1_795_176_000)
        try await store.objects.write(batch, run: crashed, completing: window, windowObjects: 1, now: 5)

        // When the next run of the same range starts
        let (next, resumable) = try store.runs.beginRun(start())

        // Then the dead run is marked failed and its window counts as done for the new run
        #expect(resumable == crashed)
        #expect(try await store.runs.completedWindows(run: next) == [window])
        let runs = try store.runs.list()
        #expect(runs.first { $0.id == crashed }?.status == .failed)
        #expect(runs.first { $0.id == crashed }?.message?.contains("interrupted") == true)
        #expect(runs.first { $0.id == next }?.resumedFrom == crashed)

        // And a run of another range resumes nothing
        let other = try store.runs.beginRun(start(from: 1_795_219_200, to: 1_795_305_600))
        #expect(other.resumableRunID == nil)
    }

    @Test("a completed run is never resumed from, on PostgreSQL", .postgreSQLServer)
    func completedRunIsNotResumedOnPostgreSQL() async throws {
        try await completedRunIsNotResumed(backend: .postgreSQL)
    }

    @Test("a completed run is never resumed from", arguments: [TestHistoryBackend.sqlite])
    func completedRunIsNotResumed(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start()).runID
        try await store.objects.write(
            ObjectLists(), run: run, completing: ExtractionWindow(resource: "charges", from: 0, to: 1), now: 1)
        try store.runs.finishRun(run, status: .completed, finishedAt: 2, message: nil, details: "{}")
        #expect(try store.runs.beginRun(start()).resumableRunID == nil)
    }
}

@Suite("Findings across runs")
struct FindingsTests {
    let key = Finding(
        key: FindingKey(kind: "skipped_transfer", objectID: "ch_1"), subject: FindingSubject(id: "ch_1", created: 5))
    let other = Finding(
        key: FindingKey(kind: "unreversed_dispute", objectID: "dp_1"), subject: FindingSubject(id: "dp_1", created: 5))

    @Test(
        "a finding is new until a completed run has reported it, then open; gone ones are resolved, on PostgreSQL",
        .postgreSQLServer)
    func newOpenResolvedOnPostgreSQL() async throws { try await newOpenResolved(backend: .postgreSQL) }

    @Test(
        "a finding is new until a completed run has reported it, then open; gone ones are resolved",
        arguments: [TestHistoryBackend.sqlite])
    func newOpenResolved(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        // Given a run that sees two findings but fails before its report is written
        let failed = try store.runs.beginRun(start("run")).runID
        let first = try await store.runs.recordFindings([key, other], run: failed, from: 0, to: 10)
        #expect(first.open.isEmpty)
        try store.runs.finishRun(failed, status: .failed, finishedAt: 1, message: "disk full", details: nil)

        // When the next run sees them and completes, they are still new to it
        let completed = try store.runs.beginRun(start("run")).runID
        let second = try await store.runs.recordFindings([key, other], run: completed, from: 0, to: 10)
        #expect(second.open.isEmpty)
        try store.runs.finishRun(completed, status: .completed, finishedAt: 2, message: nil, details: nil)

        // Then a third run calls the one it still sees open and the other resolved
        let third = try store.runs.beginRun(start("run")).runID
        let update = try await store.runs.recordFindings([key], run: third, from: 0, to: 10)
        #expect(update.open == [key.key])
        #expect(update.resolved.map(\.key) == [other.key])
    }

    @Test(
        "what a failed run resolved stays open for the next run to resolve and report, on PostgreSQL", .postgreSQLServer
    )
    func failedRunResolvesNothingOnPostgreSQL() async throws {
        try await failedRunResolvesNothing(backend: .postgreSQL)
    }

    @Test(
        "what a failed run resolved stays open for the next run to resolve and report",
        arguments: [TestHistoryBackend.sqlite])
    func failedRunResolvesNothing(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let reported = try store.runs.beginRun(start("run")).runID
        _ = try await store.runs.recordFindings([key, other], run: reported, from: 0, to: 10)
        try store.runs.finishRun(reported, status: .completed, finishedAt: 1, message: nil, details: nil)
        let failed = try store.runs.beginRun(start("run")).runID
        #expect(
            try await store.runs.recordFindings([key], run: failed, from: 0, to: 10).resolved.map(\.key) == [other.key])
        try store.runs.finishRun(failed, status: .failed, finishedAt: 2, message: "killed", details: nil)
        let next = try store.runs.beginRun(start("run")).runID
        let update = try await store.runs.recordFindings([key], run: next, from: 0, to: 10)
        #expect(update.resolved.map(\.key) == [other.key])
        #expect(update.open == [key.key])
    }

    @Test("findings of a range that does not overlap are never resolved by it, on PostgreSQL", .postgreSQLServer)
    func otherRangesUntouchedOnPostgreSQL() async throws { try await otherRangesUntouched(backend: .postgreSQL) }

    @Test("findings of a range that does not overlap are never resolved by it", arguments: [TestHistoryBackend.sqlite])
    func otherRangesUntouched(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start("run")).runID
        _ = try await store.runs.recordFindings([other], run: run, from: 0, to: 10)
        try store.runs.finishRun(run, status: .completed, finishedAt: 1, message: nil, details: nil)
        let later = try store.runs.beginRun(start("run", from: 1_795_219_200, to: 1_795_305_600)).runID
        #expect(try await store.runs.recordFindings([], run: later, from: 10, to: 20).resolved.isEmpty)
    }

    @Test(
        "a shorter run inside a longer one resolves only findings about objects it judged, and re-opens nothing, on PostgreSQL",
        .postgreSQLServer)
    func shorterRunResolvesOnlyItsOwnObjectsOnPostgreSQL() async throws {
        try await shorterRunResolvesOnlyItsOwnObjects(backend: .postgreSQL)
    }

    @Test(
        "a shorter run inside a longer one resolves only findings about objects it judged, and re-opens nothing",
        arguments: [TestHistoryBackend.sqlite])
    func shorterRunResolvesOnlyItsOwnObjects(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        // Given a 30-unit run that reports a finding about an object of unit 5 and one about an object of unit 25
        let early = Finding(
            key: FindingKey(kind: "skipped_transfer", objectID: "ch_early"),
            subject: FindingSubject(id: "ch_early", created: 5))
        let lateInRange = Finding(
            key: FindingKey(kind: "application_fee_amount_mismatch", objectID: "fee_late"),
            subject: FindingSubject(id: "ch_late", created: 25))
        let long = try store.runs.beginRun(start("run")).runID
        _ = try await store.runs.recordFindings([early, lateInRange], run: long, from: 0, to: 30)
        try store.runs.finishRun(long, status: .completed, finishedAt: 1, message: nil, details: nil)

        // When a run of units 20–30 finds neither, it resolves only the one whose charge it judged
        let short = try store.runs.beginRun(start("run")).runID
        let update = try await store.runs.recordFindings([], run: short, from: 20, to: 30)
        try store.runs.finishRun(short, status: .completed, finishedAt: 2, message: nil, details: nil)
        #expect(update.resolved.map(\.key) == [lateInRange.key])

        // And the 30-unit run again finds the early one still open: untouched by the short run
        let again = try store.runs.beginRun(start("run")).runID
        let last = try await store.runs.recordFindings([early], run: again, from: 0, to: 30)
        #expect(last.open == [early.key])
        #expect(last.resolved.isEmpty)
    }

    @Test(
        "a finding about no judged object is resolved only by a run whose range covers the one that reported it, on PostgreSQL",
        .postgreSQLServer)
    func findingWithoutSubjectOnPostgreSQL() async throws { try await findingWithoutSubject(backend: .postgreSQL) }

    @Test(
        "a finding about no judged object is resolved only by a run whose range covers the one that reported it",
        arguments: [TestHistoryBackend.sqlite])
    func findingWithoutSubject(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let missing = Finding(key: FindingKey(kind: "missing_object", objectID: "tr_gone"), subject: nil)
        let run = try store.runs.beginRun(start("run")).runID
        _ = try await store.runs.recordFindings([missing], run: run, from: 0, to: 30)
        try store.runs.finishRun(run, status: .completed, finishedAt: 1, message: nil, details: nil)
        let inside = try store.runs.beginRun(start("run")).runID
        #expect(try await store.runs.recordFindings([], run: inside, from: 10, to: 20).resolved.isEmpty)
        try store.runs.finishRun(inside, status: .completed, finishedAt: 2, message: nil, details: nil)
        let covering = try store.runs.beginRun(start("run")).runID
        #expect(
            try await store.runs.recordFindings([], run: covering, from: 0, to: 30).resolved.map(\.key) == [missing.key]
        )
    }
}
