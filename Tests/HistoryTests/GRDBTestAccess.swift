import GRDB

@testable import History

/// Raw access to a history file, for tests that tamper with it.
enum GRDBTestAccess {
    /// Pretends a newer connect-recon applied a migration this version does not know.
    static func recordUnknownMigration(_ path: String, identifier: String) throws {
        let pool = try DatabasePool(path: path)
        try pool.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
        }
    }
}

extension GRDBTestAccess {
    /// Creates a history of schema v3 (raw JSON inline in the object tables) holding one charge and one balance
    /// transaction, as connect-recon wrote it before schema v4.
    static func createVersion3History(_ path: String) throws {
        let pool = try DatabasePool(path: path)
        try HistoryMigrations.migrator.migrate(pool, upTo: "v3-findings-reported-run")
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO runs (command, range_from, range_to, time_zone, mode, status, started_at, pid,
                                      tool_version, stripe_version, api_base)
                    VALUES ('extract', 0, 100, 'UTC', 'test', 'completed', 1, 1, '0.1.0', 'v', 'http://127.0.0.1:1');
                    INSERT INTO charges (id, created, currency, amount, amount_captured, amount_refunded, status,
                                         captured, livemode, raw, first_seen_run, last_seen_run, changed_run)
                    VALUES ('ch_old', 10, 'usd', 1000, 1000, 0, 'succeeded', 1, 0,
                            '{"id":"ch_old","disputed":true}', 1, 1, 1);
                    INSERT INTO balance_transactions (id, created, currency, amount, fee, net, type,
                                                      reporting_category, status, raw, first_seen_run,
                                                      last_seen_run, changed_run)
                    VALUES ('txn_old', 10, 'usd', 1000, 59, 941, 'charge', 'charge', 'available',
                            '{"id":"txn_old"}', 1, 1, 1);
                    """)
        }
    }

    /// The column names of `table`.
    static func columns(_ path: String, table: String) throws -> [String] {
        let pool = try DatabasePool(path: path)
        return try pool.read { db in try db.columns(in: table).map(\.name) }
    }

    /// The names of the indexes on `table` made by `CREATE INDEX`, sorted.
    static func indexes(_ path: String, table: String) throws -> [String] {
        let pool = try DatabasePool(path: path)
        return try pool.read { db in
            try db.indexes(on: table).filter { $0.origin == .createIndex }.map(\.name).sorted()
        }
    }
}

extension GRDBTestAccess {
    /// Creates a history of schema v4 (before payouts) holding one balance transaction, whose raw JSON has the
    /// `available_on` that v4 kept only there.
    static func createVersion4History(_ path: String) throws {
        let pool = try DatabasePool(path: path)
        try HistoryMigrations.migrator.migrate(pool, upTo: "v4-raw-json-apart")
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO runs (command, range_from, range_to, time_zone, mode, status, started_at, pid,
                                      tool_version, stripe_version, api_base)
                    VALUES ('extract', 0, 100, 'UTC', 'test', 'completed', 1, 1, '0.2.0', 'v', 'http://127.0.0.1:1');
                    INSERT INTO balance_transactions (id, created, currency, amount, fee, net, type,
                                                      reporting_category, status, first_seen_run, last_seen_run,
                                                      changed_run)
                    VALUES ('txn_v4', 10, 'usd', 1000, 59, 941, 'charge', 'charge', 'available', 1, 1, 1);
                    INSERT INTO balance_transactions_raw (id, raw)
                    VALUES ('txn_v4', '{"id":"txn_v4","available_on":172800}');
                    """)
        }
    }
}
