/// Brings a PostgreSQL history's schema up to date: ``PostgreSQLMigrations`` not yet applied, in order, recorded
/// in `grdb_migrations` under the identifiers SQLite's migrator records (so both histories say the same about
/// their schema, and the copy between them can check it).
enum PostgreSQLMigrator {
    /// The transaction-level advisory lock that makes two processes opening a new database migrate it one after
    /// the other.
    static let advisoryLockKey: Int64 = 0x636F_6E6E_6563_7401

    /// Applies the missing migrations inside `session`'s transaction; throws ``HistoryError/newerSchema(path:)``
    /// when the database records a migration this version does not know.
    static func migrate(_ session: SQLSession, address: PostgreSQLAddress) throws {
        try session.execute("SELECT pg_advisory_xact_lock(CAST(? AS BIGINT))", [.integer(advisoryLockKey)])
        try session.execute(
            #"CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT COLLATE "C" NOT NULL PRIMARY KEY)"#)
        let applied = Set(try session.values(String.self, "SELECT identifier FROM grdb_migrations"))
        let known = PostgreSQLMigrations.migrations.map(\.identifier)
        guard applied.isSubset(of: Set(known)) else { throw HistoryError.newerSchema(path: address.description) }
        for migration in PostgreSQLMigrations.migrations where !applied.contains(migration.identifier) {
            try session.execute(migration.sql)
            try session.execute(
                "INSERT INTO grdb_migrations (identifier) VALUES (?)", [.text(migration.identifier)])
        }
    }
}
