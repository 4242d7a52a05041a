import Foundation
import GRDB
import TestSupport
import Testing

@testable import History

/// Migration v10 carries `refund_without_transfer_reversal` findings (one per refund) over to
/// `refund_not_recovered` (one per charge), on both databases, so an open finding stays open under its new name.
@Suite("Refund findings carried over to refund recovery", .serialized)
struct RefundRecoveryMigrationTests {
    /// The run every stored row names.
    static let run = """
        INSERT INTO runs (command, range_from, range_to, time_zone, mode, status, started_at, pid, tool_version,
                          stripe_version, api_base)
        VALUES ('run', 0, 86400, 'UTC', 'test', 'completed', 1, 1, '0.1.0', 'v', 'http://127.0.0.1:1');
        """

    /// A v9 history's rows: a run, three refunds of two charges, and findings of the old kind (one open and one
    /// resolved on charge a, one resolved on charge b, one about a refund the history lacks) beside another kind.
    static let rows = """
        \(run)
        INSERT INTO refunds (id, created, charge_id, currency, amount, status, first_seen_run, last_seen_run, changed_run)
        VALUES ('re_a1', 100, 'ch_a', 'usd', 400, 'succeeded', 1, 1, 1),
               ('re_a2', 200, 'ch_a', 'usd', 300, 'succeeded', 1, 1, 1),
               ('re_b1', 300, 'ch_b', 'usd', 500, 'succeeded', 1, 1, 1);
        INSERT INTO findings (kind, object_id, first_run, last_run, resolved_run, range_from, range_to, reported_run,
                              subject_id, subject_created)
        VALUES ('refund_without_transfer_reversal', 're_a1', 1, 1, NULL, 0, 86400, 1, 're_a1', 100),
               ('refund_without_transfer_reversal', 're_a2', 1, 1, 1, 0, 86400, 1, 're_a2', 200),
               ('refund_without_transfer_reversal', 're_b1', 1, 1, 1, 0, 86400, 1, 're_b1', 300),
               ('refund_without_transfer_reversal', 're_gone', 1, 1, NULL, 0, 86400, 1, 're_gone', 400),
               ('skipped_transfer', 'ch_x', 1, 1, NULL, 0, 86400, 1, 'ch_x', 50);
        """

    static let query = """
        SELECT kind || '|' || object_id || '|' || COALESCE(CAST(resolved_run AS TEXT), 'open') || '|'
               || subject_id || '|' || CAST(subject_created AS TEXT) || '|' || CAST(reported_run AS TEXT)
        FROM findings ORDER BY kind, object_id
        """

    /// One merged finding per charge: open while any it merges is; the latest refund as its subject.
    static let expected = [
        "refund_not_recovered|ch_a|open|re_a2|200|1",
        "refund_not_recovered|ch_b|1|re_b1|300|1",
        "refund_not_recovered|re_gone|open|re_gone|400|1",
        "skipped_transfer|ch_x|open|ch_x|50|1",
    ]

    @Test func onSQLite() throws {
        let queue = try DatabaseQueue()
        try HistoryMigrations.migrator.migrate(queue, upTo: "v9-daily-platform-fees")
        try queue.write { db in try db.execute(sql: Self.rows) }
        try HistoryMigrations.migrator.migrate(queue)
        #expect(try queue.read { db in try String.fetchAll(db, sql: Self.query) } == Self.expected)
    }

    @Test func v11ReadsEachStoredRefundsReasonFromItsJSON() throws {
        // Given a v10 history holding a refund whose JSON says expired_uncaptured_charge, and one that says nothing
        let queue = try DatabaseQueue()
        try HistoryMigrations.migrator.migrate(queue, upTo: "v10-refund-not-recovered")
        try queue.write { db in
            try db.execute(
                sql: """
                    \(Self.run)
                    INSERT INTO refunds (id, created, charge_id, currency, amount, status, first_seen_run,
                                         last_seen_run, changed_run)
                    VALUES ('re_x', 1, 'ch_x', 'usd', 100, 'succeeded', 1, 1, 1),
                           ('re_y', 2, 'ch_y', 'usd', 100, 'succeeded', 1, 1, 1);
                    INSERT INTO refunds_raw (id, raw)
                    VALUES ('re_x', '{"id":"re_x","reason":"expired_uncaptured_charge"}'),
                           ('re_y', '{"id":"re_y","reason":null}');
                    """)
        }
        // When it is migrated
        try HistoryMigrations.migrator.migrate(queue)
        // Then the facts hold the reason the JSON gave, none where it gave none
        let reasons = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, reason FROM refunds ORDER BY id").map {
                "\($0["id"] as String)=\(($0["reason"] as String?) ?? "-")"
            }
        }
        #expect(reasons == ["re_x=expired_uncaptured_charge", "re_y=-"])
    }

    @Test func v12ReadsEachStoredChargesAndPaymentIntentsTransferGroupFromItsJSON() throws {
        // Given a v11 history holding a charge and a PaymentIntent of an order's group, and a charge of none
        let queue = try DatabaseQueue()
        try HistoryMigrations.migrator.migrate(queue, upTo: "v11-refund-reason")
        try queue.write { db in
            try db.execute(
                sql: """
                    \(Self.run)
                    INSERT INTO charges (id, created, currency, amount, amount_captured, amount_refunded, status,
                                         captured, livemode, first_seen_run, last_seen_run, changed_run)
                    VALUES ('ch_g', 1, 'usd', 100, 100, 0, 'succeeded', 1, 0, 1, 1, 1),
                           ('ch_n', 2, 'usd', 100, 100, 0, 'succeeded', 1, 0, 1, 1, 1);
                    INSERT INTO charges_raw (id, raw)
                    VALUES ('ch_g', '{"id":"ch_g","transfer_group":"ORDER_7"}'), ('ch_n', '{"id":"ch_n"}');
                    INSERT INTO payment_intents (id, created, currency, amount, status, livemode, first_seen_run,
                                                 last_seen_run, changed_run)
                    VALUES ('pi_g', 1, 'usd', 100, 'succeeded', 0, 1, 1, 1);
                    INSERT INTO payment_intents_raw (id, raw) VALUES ('pi_g', '{"id":"pi_g","transfer_group":"ORDER_7"}');
                    """)
        }
        // When it is migrated
        try HistoryMigrations.migrator.migrate(queue)
        // Then the facts hold the group the JSON gave, none where it gave none
        let groups = try queue.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT id || '=' || COALESCE(transfer_group, '-') FROM charges
                    UNION ALL SELECT id || '=' || COALESCE(transfer_group, '-') FROM payment_intents ORDER BY 1
                    """)
        }
        #expect(groups == ["ch_g=ORDER_7", "ch_n=-", "pi_g=ORDER_7"])
    }

    @Test(
        .postgreSQLServer)
    func onPostgreSQL() throws {
        let (url, migrations) = try PostgreSQLHistoryBefore.migration("v10-refund-not-recovered", holding: Self.rows)
        #expect(migrations == 9)
        _ = try HistoryStore.open(try HistoryLocation(url))
        let found = try TestHistoryBackend.psql(url, Self.query).split(separator: "\n").map(String.init)
        #expect(found == Self.expected)
    }
}
