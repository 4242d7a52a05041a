import Foundation
import GRDB
import ReconCore

/// The SQLite history: every object ever extracted (facts + raw JSON), every run, and extraction checkpoints.
///
/// WAL mode (a `DatabasePool`): readers never block the writer. Every write method is one transaction, so a
/// crash leaves the history exactly as of the last commit. The file is created readable by its owner only.
/// Writers must hold the ``HistoryLock`` of the same path; readers (`history`) need not.
public final class HistoryStore: Sendable {
    public let path: String
    private let pool: DatabasePool

    private init(path: String, pool: DatabasePool) {
        self.path = path
        self.pool = pool
    }

    /// Opens (creating with mode 0600 if needed) and migrates the database at `path`.
    public static func open(path: String) throws(HistoryError) -> HistoryStore {
        try createPrivately(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "connect-recon.history"
        // The reconcile's scope tables hold a range's ids (a million and more): keep them in memory, not in
        // temporary files.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            let migrator = HistoryMigrations.migrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) { throw HistoryError.newerSchema(path: path) }
            try migrator.migrate(pool)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw map(error, path: path)
        }
        return HistoryStore(path: path, pool: pool)
    }

    /// Creates an empty file with mode 0600 so SQLite's WAL and shared-memory files inherit owner-only access.
    private static func createPrivately(_ path: String) throws(HistoryError) {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return }
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
    }

    static func map(_ error: any Error, path: String) -> HistoryError {
        guard let databaseError = error as? DatabaseError else {
            return .storage(path: path, reason: String(describing: error))
        }
        switch databaseError.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .corrupt(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
            return .cannotOpen(path: path, reason: databaseError.message ?? "\(databaseError.resultCode)")
        case .SQLITE_FULL: return .storage(path: path, reason: "the disk is full")
        default: return .storage(path: path, reason: databaseError.message ?? "\(databaseError.resultCode)")
        }
    }

    /// Runs `body` in a write transaction on GRDB's writer queue, without blocking the calling thread.
    func writeDatabase<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(HistoryError) -> T {
        do {
            return try await pool.write(body)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw Self.map(error, path: path)
        }
    }

    /// Runs `body` in a read transaction.
    func readDatabase<T>(_ body: @Sendable (Database) throws -> T) throws(HistoryError) -> T { try read(body) }

    private func write<T>(_ body: @Sendable (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try pool.write(body)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw Self.map(error, path: path)
        }
    }

    /// Runs `body` in one read transaction (a snapshot of the history), on the calling thread; `body`'s own
    /// errors come out as they are.
    func readSnapshot<T>(_ body: (Database) throws -> T) throws -> T { try pool.read(body) }

    private func read<T>(_ body: @Sendable (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw Self.map(error, path: path)
        }
    }

    // MARK: - Mode

    /// Records `mode` (`test` / `live`) on first use; refuses a database of the other mode.
    public func claimMode(_ mode: String) throws(HistoryError) {
        let path = self.path
        try write { db in
            if let stored = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'mode'") {
                guard stored == mode else { throw HistoryError.modeMismatch(path: path, stored: stored, requested: mode) }
            } else {
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('mode', ?)", arguments: [mode])
            }
        }
    }

    /// The mode recorded by the first run, if any.
    public func storedMode() throws(HistoryError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'mode'") }
    }

    // MARK: - Runs

    /// Records a run as started. Runs still marked running are dead (the caller holds the lock), so they
    /// are marked failed; the newest of them over the same range is returned for resuming.
    /// - Parameter resume: whether this run may take over an interrupted extraction of the same range
    ///   (extracting commands); `reconcile` does not.
    public func beginRun(_ start: RunStart, resume: Bool = true) throws(HistoryError)
        -> (runID: Int64, resumableRunID: Int64?)
    {
        try write { db in
            // Runs still marked running died (the caller holds the lock): what they resolved never reached
            // anyone, so it stays open.
            try db.execute(
                sql: """
                    UPDATE findings SET resolved_run = NULL
                    WHERE resolved_run IN (SELECT id FROM runs WHERE status = 'running')
                    """)
            try db.execute(
                sql: """
                    UPDATE runs SET status = 'failed', finished_at = ?,
                        message = 'interrupted: the process stopped before finishing'
                    WHERE status = 'running'
                    """, arguments: [start.startedAt])
            let (from, to) = start.range.unixSeconds
            let resumable = !resume ? nil : try Int64.fetchOne(
                db,
                sql: """
                    SELECT id FROM runs WHERE range_from = ? AND range_to = ? AND status = 'failed'
                        AND id > COALESCE((SELECT MAX(id) FROM runs WHERE range_from = ? AND range_to = ?
                                           AND status = 'completed'), 0)
                        AND EXISTS (SELECT 1 FROM checkpoints WHERE run_id = runs.id)
                    ORDER BY id DESC LIMIT 1
                    """, arguments: [from, to, from, to])
            try db.execute(
                sql: """
                    INSERT INTO runs (command, range_from, range_to, time_zone, mode, status, started_at, pid,
                                      tool_version, stripe_version, api_base, resumed_from)
                    VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    start.command, from, to, start.range.timeZone.identifier, start.mode, start.startedAt,
                    Int64(start.pid), start.toolVersion, start.stripeVersion, start.apiBase, resumable,
                ])
            let runID = db.lastInsertedRowID
            if let resumable {
                try db.execute(
                    sql: """
                        INSERT INTO checkpoints (run_id, resource, window_from, window_to, objects, completed_at)
                        SELECT ?, resource, window_from, window_to, objects, completed_at FROM checkpoints
                        WHERE run_id = ?
                        """, arguments: [runID, resumable])
            }
            return (runID, resumable)
        }
    }

    /// Records how a run ended.
    public func finishRun(
        _ runID: Int64, status: RunStatus, finishedAt: Int64, message: String?, details: String?
    ) throws(HistoryError) {
        try write { db in
            try db.execute(
                sql: "UPDATE runs SET status = ?, finished_at = ?, message = ?, details = ? WHERE id = ?",
                arguments: [status.rawValue, finishedAt, message, details, runID])
            if status == .completed {
                // Its report was written: its findings have now been reported.
                try db.execute(sql: "UPDATE findings SET reported_run = ? WHERE last_run = ?", arguments: [runID, runID])
            } else {
                // Its report never reached anyone: what it resolved stays open for the next run to resolve.
                try db.execute(sql: "UPDATE findings SET resolved_run = NULL WHERE resolved_run = ?", arguments: [runID])
            }
        }
    }

    /// Past runs, newest first.
    public func runs(limit: Int = 100) throws(HistoryError) -> [RunRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM runs ORDER BY id DESC LIMIT ?", arguments: [limit]).map { row in
                RunRecord(
                    id: row["id"], command: row["command"], rangeFrom: row["range_from"], rangeTo: row["range_to"],
                    timeZone: row["time_zone"], mode: row["mode"],
                    status: RunStatus(rawValue: row["status"]) ?? .failed, startedAt: row["started_at"],
                    finishedAt: row["finished_at"], pid: row["pid"], toolVersion: row["tool_version"],
                    stripeVersion: row["stripe_version"], apiBase: row["api_base"], resumedFrom: row["resumed_from"],
                    message: row["message"], details: row["details"])
            }
        }
    }

    /// The windows a run has finished (its own and those it took over when resuming).
    public func completedWindows(run runID: Int64) throws(HistoryError) -> Set<ExtractionWindow> {
        try read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT resource, window_from, window_to FROM checkpoints WHERE run_id = ?", arguments: [runID])
            return Set(rows.map { ExtractionWindow(resource: $0["resource"], from: $0["window_from"], to: $0["window_to"]) })
        }
    }

    // MARK: - Objects

    /// Stores `batch` in one transaction: new objects are inserted, known ones updated in place (never
    /// duplicated), and content changes are recorded against `runID`. With `completing`, the window's
    /// checkpoint commits in the same transaction, so a crash never marks a window done without its objects.
    ///
    /// Runs on GRDB's writer queue: the calling task suspends, no cooperative thread blocks on SQLite.
    @discardableResult
    public func write(
        _ batch: ObjectBatch, run runID: Int64, completing window: ExtractionWindow? = nil, windowObjects: Int = 0,
        now: Int64
    ) async throws(HistoryError) -> WriteOutcome {
        do {
            return try await pool.write { db in
                try Self.store(batch, db: db, run: runID, completing: window, windowObjects: windowObjects, now: now)
            }
        } catch let error as HistoryError {
            throw error
        } catch {
            throw Self.map(error, path: path)
        }
    }

    private static func store(
        _ batch: ObjectBatch, db: Database, run runID: Int64, completing window: ExtractionWindow?, windowObjects: Int,
        now: Int64
    ) throws -> WriteOutcome {
        var outcome = WriteOutcome()
        outcome = outcome + (try Self.upsert(batch.charges, db: db, run: runID))
        outcome = outcome + (try Self.upsert(batch.paymentIntents, db: db, run: runID))
        outcome = outcome + (try Self.upsert(batch.transfers, db: db, run: runID))
        outcome = outcome + (try Self.upsert(batch.transferReversals, db: db, run: runID))
        outcome = outcome + (try Self.upsert(batch.applicationFees, db: db, run: runID))
        outcome = outcome + (try Self.upsert(batch.feeRefunds, db: db, run: runID))
        outcome = outcome + (try Self.upsert(batch.refunds, db: db, run: runID))
        outcome = outcome + (try Self.upsert(batch.disputes, db: db, run: runID))
        outcome = outcome + (try Self.upsert(batch.balanceTransactions, db: db, run: runID))
        outcome = outcome + (try Self.upsert(batch.payouts, db: db, run: runID))
        try Self.link(batch.payoutTransactions, db: db, run: runID)
        if let window {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO checkpoints (run_id, resource, window_from, window_to, objects, completed_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [runID, window.resource, window.from, window.to, windowObjects, now])
        }
        return outcome
    }

    private static func upsert<Facts: StorableFacts>(
        _ objects: [StoredObject<Facts>], db: Database, run runID: Int64
    ) throws -> WriteOutcome {
        guard !objects.isEmpty else { return WriteOutcome() }
        // Arguments are bound by position into one cached statement per table: no dictionary, encoder or
        // SQL text per object.
        let statement = try db.cachedStatement(sql: upsertSQL(Facts.self))
        let storeRaw = try db.cachedStatement(sql: rawUpsertSQL(Facts.self))
        let change = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO changes (run_id, kind, object_id, change) VALUES (?, ?, ?, ?)")
        let run = runID.databaseValue
        var values: [DatabaseValue] = []
        values.reserveCapacity(Facts.columns.count + 4)
        var outcome = WriteOutcome()
        for object in objects {
            // The raw JSON first: its upsert changes a row only when the object is new or its JSON differs.
            let id = object.facts.id.databaseValue
            try storeRaw.execute(arguments: [id, object.rawJSON.databaseValue])
            let contentChanged = db.changesCount > 0
            values.removeAll(keepingCapacity: true)
            values += object.facts.databaseValues
            values += [run, run, run, contentChanged.databaseValue]
            guard let row = try Row.fetchOne(statement, arguments: StatementArguments(values)) else { continue }
            let firstSeen: Int64 = try row.decode(atIndex: 0)
            let changed: Int64 = try row.decode(atIndex: 1)
            // Each object counts once per run: a second sighting in the same run (a list page and a
            // follow-up by id, say) finds its change already recorded and counts as unchanged.
            let kind = firstSeen == runID ? "new" : (changed == runID ? "updated" : nil)
            if let kind {
                try change.execute(arguments: [run, Facts.kind.rawValue, object.facts.id, kind])
            }
            switch (kind, db.changesCount) {
            case ("new", 1): outcome.new += 1
            case ("updated", 1): outcome.updated += 1
            default: outcome.unchanged += 1
            }
        }
        return outcome
    }

    /// Records which payout's `?payout=` list held each balance transaction (seen again: its `last_seen_run`).
    private static func link(_ links: [PayoutTransactionLink], db: Database, run runID: Int64) throws {
        guard !links.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO payout_transactions (payout_id, balance_transaction_id, first_seen_run, last_seen_run)
                VALUES (?, ?, ?, ?)
                ON CONFLICT(payout_id, balance_transaction_id) DO UPDATE SET last_seen_run = excluded.last_seen_run
                """)
        for link in links {
            try statement.execute(arguments: [link.payoutID, link.balanceTransactionID, runID, runID])
        }
    }

    /// The upsert of one object of `Facts`: its columns and runs, returning the row's runs. The last argument
    /// says whether the raw JSON changed (then `changed_run` becomes this run).
    private static func upsertSQL<Facts: StorableFacts>(_ type: Facts.Type) -> String {
        let table = Facts.table
        let columns = Facts.columns
        let assignments = columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return """
            INSERT INTO \(table) (\(columns.joined(separator: ", ")), first_seen_run, last_seen_run, changed_run)
            VALUES (\(Array(repeating: "?", count: columns.count + 3).joined(separator: ", ")))
            ON CONFLICT(id) DO UPDATE SET \(assignments),
                changed_run = CASE WHEN ? THEN excluded.changed_run ELSE \(table).changed_run END,
                last_seen_run = excluded.last_seen_run
            RETURNING first_seen_run, changed_run
            """
    }

    /// The upsert of one object's raw JSON into `<table>_raw`: inserts, or replaces only a different text, so
    /// `changesCount` tells whether the object is new or changed.
    private static func rawUpsertSQL<Facts: StorableFacts>(_ type: Facts.Type) -> String {
        let table = Facts.table + "_raw"
        return """
            INSERT INTO \(table) (id, raw) VALUES (?, ?)
            ON CONFLICT(id) DO UPDATE SET raw = excluded.raw WHERE \(table).raw IS NOT excluded.raw
            """
    }

    // MARK: - Reading facts

    /// Charges created in `[from, to)` (Unix seconds).
    public func charges(createdFrom from: Int64, to: Int64) throws(HistoryError) -> [ChargeFacts] {
        try facts(ChargeFacts.self, createdFrom: from, to: to)
    }

    func facts<Facts: StorableFacts>(_ type: Facts.Type, createdFrom from: Int64, to: Int64) throws(HistoryError)
        -> [Facts]
    {
        try read { db in
            try Self.fetchFacts(
                Facts.self, db: db, condition: "created >= :from AND created < :to", arguments: ["from": from, "to": to])
        }
    }

    /// The facts of the rows of `Facts.table` matching `condition`, ordered by creation time, then id.
    ///
    /// Reads the fact columns by index from a cursor (no `Codable`, no row copies): the reconcile of a million
    /// charges loads five million rows through here.
    static func fetchFacts<Facts: StorableFacts>(
        _ type: Facts.Type, db: Database, condition: String, arguments: StatementArguments
    ) throws -> [Facts] {
        try fetchFacts(
            Facts.self, db: db,
            sql: "SELECT \(Facts.selection) FROM \(Facts.table) WHERE \(condition) ORDER BY created, id",
            arguments: arguments)
    }

    /// The facts of every row of `sql`, whose `SELECT` list is `Facts`' columns in order.
    static func fetchFacts<Facts: StorableFacts>(
        _ type: Facts.Type, db: Database, sql: String, arguments: StatementArguments
    ) throws -> [Facts] {
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        var facts: [Facts] = []
        while let row = try cursor.next() { facts.append(try Facts(row: row)) }
        return facts
    }

    /// Ids of the objects of `kind` created in `[from, to)`, sorted.
    public func ids(of kind: ObjectKind, createdFrom from: Int64, to: Int64) throws(HistoryError) -> [String] {
        let table = Self.table(of: kind)
        return try read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM \(table) WHERE created >= ? AND created < ? ORDER BY id", arguments: [from, to])
        }
    }

    /// Every stored object of `kind` as `id → raw JSON`, for comparing two histories.
    public func rawObjects(of kind: ObjectKind) throws(HistoryError) -> [String: String] {
        let table = Self.table(of: kind)
        return try read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, raw FROM \(table)_raw").map {
                (($0["id"] as String), ($0["raw"] as String))
            })
        }
    }

    /// The stored raw JSON of one object, exactly as Stripe sent it.
    public func rawJSON(of kind: ObjectKind, id: String) throws(HistoryError) -> String? {
        let table = Self.table(of: kind)
        return try read { db in try String.fetchOne(db, sql: "SELECT raw FROM \(table)_raw WHERE id = ?", arguments: [id]) }
    }

    /// How many objects of `kind` the history holds.
    public func count(of kind: ObjectKind) throws(HistoryError) -> Int {
        let table = Self.table(of: kind)
        return try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    /// The changes a run recorded, by kind: (new, updated).
    public func changes(run runID: Int64) throws(HistoryError) -> [ObjectKind: (new: Int, updated: Int)] {
        try read { db in
            var result: [ObjectKind: (new: Int, updated: Int)] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT kind, change, COUNT(*) AS n FROM changes WHERE run_id = ? GROUP BY kind, change",
                arguments: [runID])
            {
                guard let kind = ObjectKind(rawValue: row["kind"]) else { continue }
                var entry = result[kind] ?? (0, 0)
                if row["change"] == "new" { entry.new = row["n"] } else { entry.updated = row["n"] }
                result[kind] = entry
            }
            return result
        }
    }

    static func table(of kind: ObjectKind) -> String {
        switch kind {
        case .charge: ChargeFacts.table
        case .paymentIntent: PaymentIntentFacts.table
        case .applicationFee: ApplicationFeeFacts.table
        case .feeRefund: FeeRefundFacts.table
        case .transfer: TransferFacts.table
        case .transferReversal: TransferReversalFacts.table
        case .balanceTransaction: BalanceTransactionFacts.table
        case .dispute: DisputeFacts.table
        case .refund: RefundFacts.table
        case .payout: PayoutFacts.table
        }
    }
}
