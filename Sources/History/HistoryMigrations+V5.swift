import GRDB

extension HistoryMigrations {
    /// v5: payout reconciliation. The `payouts` table (its raw JSON apart, as v4 left the others); the link of a
    /// payout to the balance transactions `?payout=` listed for it (a balance transaction names no payout, so the
    /// link is the only record); and each balance transaction's `available_on`, filled in from the raw JSON of the
    /// transactions already stored.
    static func v5Payouts(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE "payouts" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "arrival_date" INTEGER NOT NULL, \
                "status" TEXT NOT NULL, "automatic" BOOLEAN NOT NULL, "balance_transaction_id" TEXT, \
                "failure_balance_transaction_id" TEXT, "failure_code" TEXT, "livemode" BOOLEAN NOT NULL, \
                "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                CREATE INDEX "payouts_on_created" ON "payouts"("created");
                CREATE INDEX "payouts_on_last_seen_run" ON "payouts"("last_seen_run", "id");

                CREATE TABLE payouts_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL);

                CREATE TABLE "payout_transactions" ("payout_id" TEXT NOT NULL, "balance_transaction_id" TEXT NOT NULL, \
                "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, PRIMARY KEY ("payout_id", \
                "balance_transaction_id"));
                CREATE INDEX "payout_transactions_on_balance_transaction_id" ON \
                "payout_transactions"("balance_transaction_id");

                ALTER TABLE "balance_transactions" ADD COLUMN "available_on" INTEGER;

                UPDATE balance_transactions SET available_on =
                    (SELECT json_extract(r.raw, '$.available_on') FROM balance_transactions_raw r
                     WHERE r.id = balance_transactions.id);
                """)
    }
}
