import GRDB

/// The history's schema, as the migrations that built it.
///
/// A shipped migration is frozen: its SQL is written out in the migration itself (one file a migration,
/// `HistoryMigrations+V<n>.swift`) and never calls a helper or reads a constant that could change later (a shared
/// SQL builder, a table list, GRDB's table definitions), so a database migrated today ends exactly like one
/// migrated when the migration shipped. `ShippedMigrationsTests` records what each one executes and fails when
/// that changes.
///
/// v1–v8 are one file each (`HistoryMigrations+V<n>.swift`), registered below; from v9 on a migration is one entry of
/// ``SchemaMigrations``, written once for SQLite and PostgreSQL. To change the schema, append one there, and its
/// digests to the end of `ShippedMigrationsTests` (the test's failure message prints them). Never edit a shipped
/// migration, its identifier or its place in the order.
enum HistoryMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-objects-runs-checkpoints") { db in try v1ObjectsRunsCheckpoints(db) }
        migrator.registerMigration("v2-last-seen-indexes") { db in try v2LastSeenIndexes(db) }
        migrator.registerMigration("v3-findings-reported-run") { db in try v3FindingsReportedRun(db) }
        migrator.registerMigration("v4-raw-json-apart") { db in try v4RawJSONApart(db) }
        migrator.registerMigration("v5-payouts") { db in try v5Payouts(db) }
        migrator.registerMigration("v6-real-stripe-money") { db in try v6RealStripeMoney(db) }
        migrator.registerMigration("v7-query-views") { db in try v7QueryViews(db) }
        migrator.registerMigration("v8-late-outcomes") { db in try v8LateOutcomes(db) }
        for migration in SchemaMigrations.all {
            migrator.registerMigration(migration.identifier) { db in try db.execute(sql: migration.sqlite) }
        }
        return migrator
    }
}
