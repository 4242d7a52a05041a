import GRDB

/// The history's schema. A migration is never edited once shipped: change the schema with a new one.
enum HistoryMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-objects-runs-checkpoints") { db in
            try createV1(db)
        }
        migrator.registerMigration("v2-last-seen-indexes") { db in
            try createLastSeenIndexes(db)
        }
        migrator.registerMigration("v3-findings-reported-run") { db in
            // The last completed run that reported the finding: a finding only a failed or killed run saw
            // is still new to the next run (its report never reached anyone).
            try db.alter(table: "findings") { t in t.add(column: "reported_run", .integer).references("runs") }
        }
        migrator.registerMigration("v4-raw-json-apart") { db in
            try moveRawJSONApart(db)
        }
        migrator.registerMigration("v5-payouts") { db in
            try createPayouts(db)
        }
        return migrator
    }

    /// The object tables of v1, whose raw JSON v4 moved apart (later tables are created with their `_raw` table).
    static let objectTables = [
        "charges", "payment_intents", "transfers", "transfer_reversals", "application_fees", "fee_refunds", "refunds",
        "disputes", "balance_transactions",
    ]

    // MARK: - v5

    /// Payout reconciliation: the `payouts` table (its raw JSON apart, as v4 left the others), the
    /// link of a payout to the balance transactions `?payout=` listed for it (a balance transaction names no
    /// payout, so the link is the only record), and each balance transaction's `available_on`, filled in from
    /// the raw JSON of the transactions already stored.
    private static func createPayouts(_ db: Database) throws {
        try db.create(table: "payouts") { t in
            t.primaryKey("id", .text)
            t.column("created", .integer).notNull()
            t.column("currency", .text).notNull()
            t.column("amount", .integer).notNull()
            t.column("arrival_date", .integer).notNull()
            t.column("status", .text).notNull()
            t.column("automatic", .boolean).notNull()
            t.column("balance_transaction_id", .text)
            t.column("failure_balance_transaction_id", .text)
            t.column("failure_code", .text)
            t.column("livemode", .boolean).notNull()
            t.column("first_seen_run", .integer).notNull()
            t.column("last_seen_run", .integer).notNull()
            t.column("changed_run", .integer).notNull()  // the run that last saw its content change
        }
        try db.create(index: "payouts_on_created", on: "payouts", columns: ["created"])
        try db.create(index: "payouts_on_last_seen_run", on: "payouts", columns: ["last_seen_run", "id"])
        try db.execute(sql: "CREATE TABLE payouts_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL)")

        try db.create(table: "payout_transactions") { t in
            t.column("payout_id", .text).notNull()
            t.column("balance_transaction_id", .text).notNull()
            t.column("first_seen_run", .integer).notNull()
            t.column("last_seen_run", .integer).notNull()
            t.primaryKey(["payout_id", "balance_transaction_id"])
        }
        try db.create(
            index: "payout_transactions_on_balance_transaction_id", on: "payout_transactions",
            columns: ["balance_transaction_id"])

        try db.alter(table: "balance_transactions") { t in t.add(column: "available_on", .integer) }
        try db.execute(
            sql: """
                UPDATE balance_transactions SET available_on =
                    (SELECT json_extract(r.raw, '$.available_on') FROM balance_transactions_raw r
                     WHERE r.id = balance_transactions.id)
                """)
    }

    // MARK: - v4

    /// Each object table's raw JSON moves to `<table>_raw (id, raw)`. Inline, the JSON (2–5 KB an object) made
    /// every fact row fill a page of its own, so a reconcile that needs only the facts read the whole file:
    /// 12 GB for a million charges. Apart, the facts of a million charges are about 1 GB.
    ///
    /// The fact table is rebuilt (new table, copy, drop, rename, indexes again), not altered: `DROP COLUMN`
    /// shrinks each row in place and leaves one small row per page, which reads as slowly as before. The
    /// pages the old table held are reused by later writes (`VACUUM` gives them back to the file system).
    private static func moveRawJSONApart(_ db: Database) throws {
        for table in objectTables {
            try db.execute(
                sql: """
                    CREATE TABLE \(table)_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL);
                    INSERT INTO \(table)_raw (id, raw) SELECT id, raw FROM \(table);
                    """)
            let columns = try db.columns(in: table).filter { $0.name != "raw" }
            let indexes = try db.indexes(on: table).filter { $0.origin == .createIndex }
            try db.create(table: "\(table)_v4") { t in
                for column in columns {
                    if column.name == "id" {
                        t.primaryKey("id", .text)
                    } else {
                        let definition = t.column(column.name, Database.ColumnType(rawValue: column.type))
                        if column.isNotNull { definition.notNull() }
                    }
                }
            }
            let names = columns.map { $0.name.quotedDatabaseIdentifier }.joined(separator: ", ")
            try db.execute(
                sql: """
                    INSERT INTO \(table)_v4 (\(names)) SELECT \(names) FROM \(table) ORDER BY rowid;
                    DROP TABLE \(table);
                    ALTER TABLE \(table)_v4 RENAME TO \(table);
                    """)
            for index in indexes {
                try db.create(index: index.name, on: table, columns: index.columns, options: index.isUnique ? .unique : [])
            }
        }
    }

    // MARK: - v2

    /// Follow-ups ask which referenced ids the run chain has already seen (`id … WHERE last_seen_run IN …`).
    /// `last_seen_run` is stored after the raw JSON, so without an index each such question read every row's
    /// JSON in full: minutes for a million charges. A covering index answers from the index alone.
    private static func createLastSeenIndexes(_ db: Database) throws {
        for table in ["charges", "payment_intents", "transfers", "application_fees", "balance_transactions"] {
            try db.create(index: "\(table)_on_last_seen_run", on: table, columns: ["last_seen_run", "id"])
        }
    }

    // MARK: - v1

    private static func createV1(_ db: Database) throws {
        try db.create(table: "meta") { t in
            t.primaryKey("key", .text)
            t.column("value", .text).notNull()
        }
        try db.create(table: "runs") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("command", .text).notNull()
            t.column("range_from", .integer).notNull()
            t.column("range_to", .integer).notNull()
            t.column("time_zone", .text).notNull()
            t.column("mode", .text).notNull()
            t.column("status", .text).notNull()  // running, completed, failed
            t.column("started_at", .integer).notNull()
            t.column("finished_at", .integer)
            t.column("pid", .integer).notNull()
            t.column("tool_version", .text).notNull()
            t.column("stripe_version", .text).notNull()
            t.column("api_base", .text).notNull()
            t.column("resumed_from", .integer).references("runs")
            t.column("message", .text)
            t.column("details", .text)  // JSON: counts, requests, totals
        }
        try db.create(index: "runs_on_range", on: "runs", columns: ["range_from", "range_to"])

        try db.create(table: "checkpoints") { t in
            t.column("run_id", .integer).notNull().references("runs", onDelete: .cascade)
            t.column("resource", .text).notNull()
            t.column("window_from", .integer).notNull()
            t.column("window_to", .integer).notNull()
            t.column("objects", .integer).notNull()
            t.column("completed_at", .integer).notNull()
            t.primaryKey(["run_id", "resource", "window_from", "window_to"])
        }
        try db.create(table: "changes") { t in
            t.column("run_id", .integer).notNull().references("runs", onDelete: .cascade)
            t.column("kind", .text).notNull()
            t.column("object_id", .text).notNull()
            t.column("change", .text).notNull()  // new, updated
            t.primaryKey(["run_id", "kind", "object_id"])
        }

        try db.create(table: "findings") { t in
            t.column("kind", .text).notNull()  // skipped_transfer, unreversed_dispute, or an exception kind
            t.column("object_id", .text).notNull()
            t.column("first_run", .integer).notNull().references("runs")
            t.column("last_run", .integer).notNull().references("runs")
            t.column("resolved_run", .integer).references("runs")
            t.column("range_from", .integer).notNull()  // the range of the last run that reported it
            t.column("range_to", .integer).notNull()
            t.primaryKey(["kind", "object_id"])
        }

        try db.create(table: "finished_searches") { t in
            t.column("run_id", .integer).notNull().references("runs", onDelete: .cascade)
            t.column("search", .text).notNull()  // e.g. "repayment dp_…"
            t.primaryKey(["run_id", "search"])
        }

        try db.create(table: "missing_objects") { t in
            t.column("run_id", .integer).notNull().references("runs", onDelete: .cascade)
            t.column("kind", .text).notNull()
            t.column("object_id", .text).notNull()
            t.column("referenced_by", .text).notNull()
            t.column("request_id", .text)
            t.primaryKey(["run_id", "kind", "object_id"])
        }

        try createObjectTable(db, "charges", indexes: ["payment_intent_id", "transfer_id"]) { t in
            t.column("currency", .text).notNull()
            t.column("amount", .integer).notNull()
            t.column("amount_captured", .integer).notNull()
            t.column("amount_refunded", .integer).notNull()
            t.column("status", .text).notNull()
            t.column("captured", .boolean).notNull()
            t.column("payment_intent_id", .text)
            t.column("transfer_id", .text)
            t.column("application_fee_id", .text)
            t.column("application_fee_amount", .integer)
            t.column("transfer_destination", .text)
            t.column("transfer_data_amount", .integer)
            t.column("balance_transaction_id", .text)
            t.column("livemode", .boolean).notNull()
        }
        try createObjectTable(db, "payment_intents", indexes: ["latest_charge_id"]) { t in
            t.column("currency", .text).notNull()
            t.column("amount", .integer).notNull()
            t.column("application_fee_amount", .integer)
            t.column("transfer_destination", .text)
            t.column("transfer_data_amount", .integer)
            t.column("status", .text).notNull()
            t.column("latest_charge_id", .text)
            t.column("livemode", .boolean).notNull()
        }
        try createObjectTable(db, "transfers", indexes: ["source_transaction_id", "dispute_id_metadata"]) { t in
            t.column("currency", .text).notNull()
            t.column("amount", .integer).notNull()
            t.column("amount_reversed", .integer).notNull()
            t.column("destination", .text)
            t.column("source_transaction_id", .text)
            t.column("balance_transaction_id", .text)
            t.column("transfer_group", .text)
            t.column("dispute_id_metadata", .text)
            t.column("livemode", .boolean).notNull()
        }
        try createObjectTable(db, "transfer_reversals", indexes: ["transfer_id"]) { t in
            t.column("transfer_id", .text).notNull()
            t.column("currency", .text).notNull()
            t.column("amount", .integer).notNull()
            t.column("source_refund_id", .text)
            t.column("balance_transaction_id", .text)
            t.column("dispute_id_metadata", .text)
        }
        try createObjectTable(db, "application_fees", indexes: ["originating_charge_id"]) { t in
            t.column("currency", .text).notNull()
            t.column("amount", .integer).notNull()
            t.column("amount_refunded", .integer).notNull()
            t.column("originating_charge_id", .text)
            t.column("account_id", .text)
            t.column("balance_transaction_id", .text)
            t.column("livemode", .boolean).notNull()
        }
        try createObjectTable(db, "fee_refunds", indexes: ["fee_id"]) { t in
            t.column("fee_id", .text).notNull()
            t.column("currency", .text).notNull()
            t.column("amount", .integer).notNull()
            t.column("balance_transaction_id", .text)
        }
        try createObjectTable(db, "refunds", indexes: ["charge_id"]) { t in
            t.column("charge_id", .text)
            t.column("currency", .text).notNull()
            t.column("amount", .integer).notNull()
            t.column("status", .text)
            t.column("transfer_reversal_id", .text)
            t.column("balance_transaction_id", .text)
        }
        try createObjectTable(db, "disputes", indexes: ["charge_id"]) { t in
            t.column("charge_id", .text).notNull()
            t.column("currency", .text).notNull()
            t.column("amount", .integer).notNull()
            t.column("status", .text).notNull()
            t.column("balance_transaction_ids", .jsonText).notNull()
        }
        try createObjectTable(db, "balance_transactions", indexes: ["source_id"]) { t in
            t.column("currency", .text).notNull()
            t.column("amount", .integer).notNull()
            t.column("fee", .integer).notNull()
            t.column("net", .integer).notNull()
            t.column("type", .text).notNull()
            t.column("reporting_category", .text).notNull()
            t.column("source_id", .text)
            t.column("exchange_rate", .double)
            t.column("status", .text).notNull()
        }
    }

    /// A table of one object kind: `id`, `created`, the kind's columns, the raw JSON and the runs that saw it
    /// (v4 moves the raw JSON to a table of its own).
    private static func createObjectTable(
        _ db: Database, _ name: String, indexes: [String], columns: (TableDefinition) -> Void
    ) throws {
        try db.create(table: name) { t in
            t.primaryKey("id", .text)
            t.column("created", .integer).notNull()
            columns(t)
            t.column("raw", .text).notNull()  // the object exactly as Stripe sent it
            t.column("first_seen_run", .integer).notNull()
            t.column("last_seen_run", .integer).notNull()
            t.column("changed_run", .integer).notNull()  // the run that last saw its content change
        }
        try db.create(index: "\(name)_on_created", on: name, columns: ["created"])
        for column in indexes {
            try db.create(index: "\(name)_on_\(column)", on: name, columns: [column])
        }
    }
}
