import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import History

/// A shipped migration is frozen: migrating an empty database through it must execute exactly the statements it
/// shipped with, whatever else changes in the package (table lists, fact columns, GRDB's table definitions).
///
/// To add a migration, leave every line of ``shipped`` as it is: register the new migration after the last one in
/// `HistoryMigrations`, run this suite, and append the line its failure message prints. When a shipped line fails,
/// the migration was edited: undo the edit and make the change in a new migration instead.
@Suite("Shipped migrations")
struct ShippedMigrationsTests {
    /// Every shipped migration in order, with the digest of the statements it executes on an empty database. (The
    /// digests are those of the migrations as they shipped, built with GRDB's table definitions; their SQL written
    /// out executes the very same statements.)
    static let shipped: [(identifier: String, digest: String)] = [
        ("v1-objects-runs-checkpoints", "8a8cffef871d7581"),
        ("v2-last-seen-indexes", "29645d765e2a708f"),
        ("v3-findings-reported-run", "134914cbba9b050d"),
        ("v4-raw-json-apart", "ebf05cfad486cb41"),
        ("v5-payouts", "e0b15fcf3ff18b98"),
        ("v6-real-stripe-money", "f106047724f4d472"),
        ("v7-query-views", "193457b8c9e5222b"),
        ("v8-late-outcomes", "62c3c05cce8d40be"),
        ("v9-daily-platform-fees", "2205d210350dc184"),
        ("v10-refund-not-recovered", "91dfc0c34b0b6be8"),
        ("v11-refund-reason", "5e19288ddaf9a16b"),
        ("v12-transfer-groups", "81092b5af6f807b9"),
        ("v13-charge-disputed", "40ea582bfa8dfb49"),
        ("v14-balance-snapshots", "3697cd792d72005a"),
        ("v15-other-money", "f4d91c42ecf80ffe"),
        ("v16-debit-source-transfers", "9cd36bb3f92fb93a"),
    ]

    /// Every shipped PostgreSQL migration (``PostgreSQLMigrations``) in order, with the digest of its SQL.
    static let shippedPostgreSQL: [(identifier: String, digest: String)] = [
        ("v1-objects-runs-checkpoints", "9e97473c7903974d"),
        ("v2-last-seen-indexes", "924d2d340532b0dc"),
        ("v3-findings-reported-run", "92337c944ee94b73"),
        ("v4-raw-json-apart", "fc33035660b3c282"),
        ("v5-payouts", "a968747016161e85"),
        ("v6-real-stripe-money", "eb0544bd6411bf98"),
        ("v7-query-views", "1f83ee3e8ebd3518"),
        ("v8-late-outcomes", "f0601ae59f397660"),
        ("v9-daily-platform-fees", "509ade3b1e113e8b"),
        ("v10-refund-not-recovered", "9b94026dc0d494dd"),
        ("v11-refund-reason", "a41b11c9fd2c4b12"),
        ("v12-transfer-groups", "199dbe8e9667f520"),
        ("v13-charge-disputed", "2e827f7115f859b5"),
        ("v14-balance-snapshots", "f03a315f07dc3f9a"),
        ("v15-other-money", "e35f385b135a869c"),
        ("v16-debit-source-transfers", "1b7d3684c2918f66"),
    ]

    @Test("every PostgreSQL migration is the SQL it shipped with")
    func postgreSQLMigrationsAreFrozen() {
        for (index, migration) in PostgreSQLMigrations.migrations.enumerated() {
            let digest = FNV1aDigest(migration.sql.utf8).hex
            guard index < Self.shippedPostgreSQL.count else {
                Issue.record(
                    """
                    PostgreSQL migration \(migration.identifier) is not recorded as shipped. Once it is final, append \
                    this line to ShippedMigrationsTests.shippedPostgreSQL: ("\(migration.identifier)", "\(digest)"),
                    """)
                continue
            }
            #expect(migration.identifier == Self.shippedPostgreSQL[index].identifier, "migrations are only appended")
            #expect(
                digest == Self.shippedPostgreSQL[index].digest,
                "PostgreSQL migration \(migration.identifier) was edited: undo it and make the change in a new one")
        }
    }

    @Test("the shipped migrations are still registered, under their names and in their order")
    func shippedMigrationsKeepTheirPlace() {
        let registered = HistoryMigrations.migrator.migrations
        #expect(
            Array(registered.prefix(Self.shipped.count)) == Self.shipped.map(\.identifier),
            "a shipped migration was removed, renamed or moved: migrations are only ever appended")
    }

    @Test("every migration executes the statements it shipped with")
    func migrationsAreFrozen() throws {
        let registered = HistoryMigrations.migrator.migrations
        for (index, identifier) in registered.enumerated() {
            let statements = try Self.statements(of: identifier, after: index > 0 ? registered[index - 1] : nil)
            let digest = Self.digest(statements)
            guard index < Self.shipped.count else {
                Issue.record(
                    """
                    Migration \(identifier) is not recorded as shipped. Once it is final, append this line to \
                    ShippedMigrationsTests.shipped: ("\(identifier)", "\(digest)"),
                    """)
                continue
            }
            #expect(
                digest == Self.shipped[index].digest,
                """
                Migration \(identifier) no longer executes the statements it shipped with (\(statements.count) \
                now). Undo the change and make it in a new migration: databases already migrated never run it again.
                """)
        }
    }

    /// The statements migration `identifier` executes on an empty database migrated up to `previous`, without the
    /// statements GRDB's migrator runs around every migration (transactions, pragmas, its own bookkeeping).
    static func statements(of identifier: String, after previous: String?) throws -> [String] {
        let queue = try DatabaseQueue()
        let migrator = HistoryMigrations.migrator
        if let previous { try migrator.migrate(queue, upTo: previous) }
        let recorder = StatementRecorder()
        queue.inDatabase { db in
            db.trace { event in
                if case .statement(let statement) = event { recorder.record(statement.sql) }
            }
        }
        try migrator.migrate(queue, upTo: identifier)
        return recorder.statements.filter { sql in
            let bookkeeping = ["PRAGMA", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "SELECT"]
            return !bookkeeping.contains { sql.uppercased().hasPrefix($0) } && !sql.contains("grdb_migrations")
        }
    }

    /// FNV-1a (64 bits) of the statements, one a line, in hexadecimal: stable across runs, platforms and versions.
    static func digest(_ statements: [String]) -> String {
        FNV1aDigest(statements.joined(separator: "\n").utf8).hex
    }

    @Test("the digest tells statements apart, including their white space")
    func digestTellsStatementsApart() {
        let statements = [#"CREATE TABLE "meta" ("key" TEXT PRIMARY KEY NOT NULL)"#]
        #expect(Self.digest(statements) == Self.digest(statements))
        #expect(Self.digest(statements) != Self.digest(statements.map { $0.replacingOccurrences(of: " (", with: "(") }))
        #expect(Self.digest(statements) != Self.digest(statements + ["CREATE INDEX i ON meta(key)"]))
        #expect(Self.digest([]) == "cbf29ce484222325")
    }
}

/// The statements a traced connection executed, in order.
private final class StatementRecorder: Sendable {
    private let recorded = Mutex<[String]>([])

    func record(_ sql: String) { recorded.withLock { $0.append(sql) } }
    var statements: [String] { recorded.withLock { $0 } }
}
