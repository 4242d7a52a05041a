import Foundation
import GRDB
import TestSupport
import Testing

@testable import History

/// Migration v13 gives every stored charge its `disputed` flag from its stored JSON, on both databases: the
/// follow-ups ask the column, not the JSON, which charges were disputed with no dispute stored.
@Suite("Each stored charge's disputed flag, from its JSON", .serialized)
struct ChargeDisputedMigrationTests {
    /// A v12 history's charges: one disputed, one not, one whose JSON (as an older API version's) has no `disputed`.
    static let rows = """
        \(RefundRecoveryMigrationTests.run)
        INSERT INTO charges (id, created, currency, amount, amount_captured, amount_refunded, status,
                             captured, livemode, first_seen_run, last_seen_run, changed_run)
        VALUES ('ch_d', 1, 'usd', 100, 100, 0, 'succeeded', TRUE, FALSE, 1, 1, 1),
               ('ch_n', 2, 'usd', 100, 100, 0, 'succeeded', TRUE, FALSE, 1, 1, 1),
               ('ch_o', 3, 'usd', 100, 100, 0, 'succeeded', TRUE, FALSE, 1, 1, 1);
        INSERT INTO charges_raw (id, raw)
        VALUES ('ch_d', '{"id": "ch_d", "disputed": true}'), ('ch_n', '{"id": "ch_n", "disputed": false}'),
               ('ch_o', '{"id": "ch_o"}');
        """

    static let query = "SELECT id || '=' || CASE WHEN disputed THEN 'disputed' ELSE '-' END FROM charges ORDER BY id"

    static let expected = ["ch_d=disputed", "ch_n=-", "ch_o=-"]

    @Test func onSQLite() throws {
        // Given a v12 history holding a disputed charge, one that is not and one whose JSON does not say
        let queue = try DatabaseQueue()
        try HistoryMigrations.migrator.migrate(queue, upTo: "v12-transfer-groups")
        try queue.write { db in try db.execute(sql: Self.rows) }
        // When it is migrated
        try HistoryMigrations.migrator.migrate(queue)
        // Then only the charge whose JSON says so is disputed
        #expect(try queue.read { db in try String.fetchAll(db, sql: Self.query) } == Self.expected)
    }

    @Test(
        .postgreSQLServer)
    func onPostgreSQL() throws {
        let (url, migrations) = try PostgreSQLHistoryBefore.migration("v13-charge-disputed", holding: Self.rows)
        #expect(migrations == 12)
        _ = try HistoryStore.open(try HistoryLocation(url))
        let found = try TestHistoryBackend.psql(url, Self.query).split(separator: "\n").map(String.init)
        #expect(found == Self.expected)
    }
}
