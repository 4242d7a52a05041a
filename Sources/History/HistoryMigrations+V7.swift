import GRDB

extension HistoryMigrations {
    /// v7: views for the people who query the history (a BI tool, a notebook): each finding with its status, the
    /// platform fee of each destination charge as the history holds it, and the ledger by day. Stable: a later
    /// change adds a view or a column at the end, never renames one.
    static func v7QueryViews(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE VIEW "findings_status" AS
                SELECT f.kind, f.object_id,
                       CASE WHEN f.resolved_run IS NOT NULL THEN 'resolved' ELSE 'open' END AS status,
                       f.first_run, f.last_run, f.reported_run, f.resolved_run,
                       datetime(r.started_at, 'unixepoch') AS first_seen_at,
                       datetime(f.range_from, 'unixepoch') AS range_from,
                       datetime(f.range_to, 'unixepoch') AS range_to
                FROM findings f LEFT JOIN runs r ON r.id = f.first_run;

                CREATE VIEW "platform_fees_per_charge" AS
                SELECT c.id AS charge_id, datetime(c.created, 'unixepoch') AS created_utc, c.currency,
                       c.amount, c.amount_captured, c.amount_refunded,
                       COALESCE(c.transfer_destination, pi.transfer_destination, t.destination) AS destination_account,
                       t.id AS transfer_id, t.amount AS transfer_amount, t.amount_reversed AS transfer_reversed,
                       f.id AS application_fee_id, f.currency AS application_fee_currency,
                       f.amount AS application_fee_amount, f.amount_refunded AS application_fee_refunded,
                       CASE WHEN f.id IS NULL OR f.currency = c.currency THEN
                           (c.amount_captured - c.amount_refunded) - (COALESCE(t.amount, 0) - COALESCE(t.amount_reversed, 0))
                           + COALESCE(f.amount - f.amount_refunded, 0)
                       END AS destination_platform_fee
                FROM charges c
                LEFT JOIN payment_intents pi ON pi.id = c.payment_intent_id
                LEFT JOIN transfers t ON t.id = c.transfer_id
                LEFT JOIN application_fees f ON f.id = COALESCE(
                    (SELECT a.id FROM application_fees a WHERE a.id = c.application_fee_id),
                    (SELECT MIN(a.id) FROM application_fees a WHERE a.originating_charge_id = c.id))
                WHERE c.status = 'succeeded' AND c.captured
                  AND (c.transfer_destination IS NOT NULL OR c.transfer_id IS NOT NULL
                       OR pi.transfer_destination IS NOT NULL);

                CREATE VIEW "ledger_daily" AS
                SELECT date(created, 'unixepoch') AS day, currency, COALESCE(balance_type, 'payments') AS balance_type,
                       reporting_category, COUNT(*) AS transactions, SUM(amount) AS gross, SUM(fee) AS fee,
                       SUM(net) AS net
                FROM balance_transactions
                GROUP BY date(created, 'unixepoch'), currency, COALESCE(balance_type, 'payments'), reporting_category;
                """)
    }
}
