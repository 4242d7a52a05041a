import TestSupport

@testable import History

/// A PostgreSQL history as an earlier connect-recon left it, for the tests of a migration on PostgreSQL.
enum PostgreSQLHistoryBefore {
    /// A new database holding the schema of every migration before `identifier` (recorded as applied, as the
    /// migrator records them) and `rows`; returns its URL and how many migrations built it.
    static func migration(_ identifier: String, holding rows: String) throws -> (url: String, migrations: Int) {
        let url = try TestHistoryBackend.newDatabase()
        let earlier = PostgreSQLMigrations.migrations.prefix { $0.identifier != identifier }
        var setup = #"CREATE TABLE grdb_migrations (identifier TEXT COLLATE "C" NOT NULL PRIMARY KEY);"#
        for migration in earlier {
            setup += migration.sql + ";\nINSERT INTO grdb_migrations (identifier) VALUES ('\(migration.identifier)');\n"
        }
        try TestHistoryBackend.psql(url, setup + rows)
        return (url, earlier.count)
    }
}
