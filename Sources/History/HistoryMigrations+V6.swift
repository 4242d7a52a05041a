import GRDB

extension HistoryMigrations {
    /// v6: real Stripe money. Each balance transaction's `balance_type` (API version 2025-05-28), each payout's
    /// `reconciliation_status` (only a `completed` payout's `?payout=` list is final) and each refund's
    /// `failure_balance_transaction` and `failure_reason` (a refund that failed after it was made), each filled in
    /// from the raw JSON of the objects already stored, so a range extracted before the upgrade reconciles the same
    /// afterwards without the API.
    static func v6RealStripeMoney(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE "balance_transactions" ADD COLUMN "balance_type" TEXT;
                UPDATE balance_transactions SET balance_type =
                    (SELECT json_extract(r.raw, '$.balance_type') FROM balance_transactions_raw r
                     WHERE r.id = balance_transactions.id);

                ALTER TABLE "payouts" ADD COLUMN "reconciliation_status" TEXT;
                UPDATE payouts SET reconciliation_status =
                    (SELECT json_extract(r.raw, '$.reconciliation_status') FROM payouts_raw r WHERE r.id = payouts.id);

                ALTER TABLE "refunds" ADD COLUMN "failure_balance_transaction_id" TEXT;
                ALTER TABLE "refunds" ADD COLUMN "failure_reason" TEXT;
                UPDATE refunds SET
                    failure_balance_transaction_id =
                        (SELECT json_extract(r.raw, '$.failure_balance_transaction') FROM refunds_raw r
                         WHERE r.id = refunds.id),
                    failure_reason =
                        (SELECT json_extract(r.raw, '$.failure_reason') FROM refunds_raw r WHERE r.id = refunds.id);
                CREATE INDEX "refunds_on_failure_balance_transaction_id" ON "refunds"("failure_balance_transaction_id");
                """)
    }
}
