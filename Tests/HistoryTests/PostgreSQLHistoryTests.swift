import Foundation
import GRDB
import TestSupport
import Testing

@testable import History

/// What only a PostgreSQL history has: its schema as the PostgreSQL migrations build it, its advisory lock, its
/// refusal of a newer schema. (The store's behaviour is tested on both databases by the other suites.)
@Suite(
    "PostgreSQL history", .serialized,
    .postgreSQLServer)
struct PostgreSQLHistoryTests {
    @Test("the PostgreSQL migrations are SQLite's, under the same identifiers and in the same order")
    func sameMigrations() {
        #expect(PostgreSQLMigrations.migrations.map(\.identifier) == HistoryMigrations.migrator.migrations)
    }

    @Test("every table has SQLite's columns, in SQLite's order, and SQLite's indexes")
    func sameSchema() throws {
        let url = try TestHistoryBackend.newDatabase()
        _ = try HistoryStore.open(try HistoryLocation(url))
        let sqlite = try DatabaseQueue()
        try HistoryMigrations.migrator.migrate(sqlite)
        let tables = try sqlite.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        }
        let postgreSQLTables = try TestHistoryBackend.psql(
            url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
        #expect(postgreSQLTables.split(separator: "\n").map(String.init) == tables)
        let views = try sqlite.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
        }
        #expect(views == ["findings_status", "ledger_daily"])
        let postgreSQLViews = try TestHistoryBackend.psql(
            url, "SELECT viewname FROM pg_views WHERE schemaname = 'public' ORDER BY viewname")
        #expect(postgreSQLViews.split(separator: "\n").map(String.init) == views)
        for table in tables {
            let columns = try sqlite.read { db in try db.columns(in: table).map(\.name) }
            let postgreSQLColumns = try TestHistoryBackend.psql(
                url,
                """
                SELECT column_name FROM information_schema.columns WHERE table_schema = 'public'
                AND table_name = '\(table)' ORDER BY ordinal_position
                """)
            #expect(postgreSQLColumns.split(separator: "\n").map(String.init) == columns, "\(table)")
            let indexes = try sqlite.read { db in
                try db.indexes(on: table).filter { $0.origin == .createIndex }.map(\.name).sorted()
            }
            let postgreSQLIndexes = try TestHistoryBackend.psql(
                url,
                """
                SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename = '\(table)'
                AND indexname NOT LIKE '%_pkey' ORDER BY indexname COLLATE "C"
                """)
            #expect(postgreSQLIndexes.split(separator: "\n").map(String.init) == indexes, "\(table)")
        }
    }

    @Test("ids sort byte by byte, as SQLite sorts them, whatever the database's collation")
    func idsSortAsInSQLite() throws {
        let url = try TestHistoryBackend.newDatabase()
        _ = try HistoryStore.open(try HistoryLocation(url))
        let collations = try TestHistoryBackend.psql(
            url,
            """
            SELECT DISTINCT COALESCE(c.collation_name, 'none') FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = 'public' AND c.data_type = 'text' AND t.table_type = 'BASE TABLE'
            """)
        #expect(collations == "C")
    }

    @Test("a database migrated by a newer connect-recon is refused, and left as it is")
    func newerSchema() throws {
        let url = try TestHistoryBackend.newDatabase()
        let location = try HistoryLocation(url)
        _ = try HistoryStore.open(location)
        try TestHistoryBackend.psql(url, "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future')")
        #expect(throws: HistoryError.newerSchema(path: location.description)) { try HistoryStore.open(location) }
        #expect(
            try TestHistoryBackend.psql(url, "SELECT COUNT(*) FROM grdb_migrations")
                == String(PostgreSQLMigrations.migrations.count + 1))
    }

    @Test("a second writer waits, then fails naming the first; the lock goes with the first's connection")
    func advisoryLock() async throws {
        let location = try HistoryLocation(try TestHistoryBackend.newDatabase())
        var first: HistoryLock? = try await HistoryLock.acquire(
            location: location, wait: .seconds(1), holder: "run 2026-11-20_2026-11-21")
        let started = ContinuousClock.now
        await #expect {
            _ = try await HistoryLock.acquire(location: location, wait: .milliseconds(300), holder: "second")
        } throws: { error in
            guard case HistoryError.busy(let path, let holder) = error else { return false }
            return holder.hasPrefix("pid \(getpid()), run 2026-11-20_2026-11-21, connected from ")
                && holder.contains("since 20") && path == location.description
        }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(first?.path == location.description)
        first = nil
        let second = try await HistoryLock.acquire(location: location, wait: .seconds(5), holder: "second")
        #expect(second.path == location.description)
    }

    @Test("two histories on one server lock independently")
    func locksArePerDatabase() async throws {
        let one = try HistoryLocation(try TestHistoryBackend.newDatabase())
        let other = try HistoryLocation(try TestHistoryBackend.newDatabase())
        let first = try await HistoryLock.acquire(location: one, wait: .zero, holder: "one")
        let second = try await HistoryLock.acquire(location: other, wait: .zero, holder: "other")
        #expect(first.path != second.path)
    }
}
