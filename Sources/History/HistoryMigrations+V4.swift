import GRDB

extension HistoryMigrations {
    /// v4: each object table's raw JSON moves to `<table>_raw (id, raw)`. Inline, the JSON (2–5 KB an object) made
    /// every fact row fill a page of its own, so a reconcile that needs only the facts read the whole file: 12 GB
    /// for a million charges. Apart, the facts of a million charges are about 1 GB.
    ///
    /// Each fact table is rebuilt (new table, copy, drop, rename, indexes again), not altered: `DROP COLUMN`
    /// shrinks each row in place and leaves one small row per page, which reads as slowly as before. The pages the
    /// old table held are reused by later writes (`VACUUM` gives them back to the file system). Tables created
    /// later come with their `_raw` table.
    static func v4RawJSONApart(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE charges_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL);
                INSERT INTO charges_raw (id, raw) SELECT id, raw FROM charges;

                CREATE TABLE "charges_v4" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "amount_captured" INTEGER NOT NULL, \
                "amount_refunded" INTEGER NOT NULL, "status" TEXT NOT NULL, "captured" BOOLEAN NOT NULL, \
                "payment_intent_id" TEXT, "transfer_id" TEXT, "application_fee_id" TEXT, \
                "application_fee_amount" INTEGER, "transfer_destination" TEXT, "transfer_data_amount" INTEGER, \
                "balance_transaction_id" TEXT, "livemode" BOOLEAN NOT NULL, "first_seen_run" INTEGER NOT NULL, \
                "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                INSERT INTO charges_v4 ("id", "created", "currency", "amount", "amount_captured", "amount_refunded", \
                "status", "captured", "payment_intent_id", "transfer_id", "application_fee_id", \
                "application_fee_amount", "transfer_destination", "transfer_data_amount", "balance_transaction_id", \
                "livemode", "first_seen_run", "last_seen_run", "changed_run") SELECT "id", "created", "currency", \
                "amount", "amount_captured", "amount_refunded", "status", "captured", "payment_intent_id", \
                "transfer_id", "application_fee_id", "application_fee_amount", "transfer_destination", \
                "transfer_data_amount", "balance_transaction_id", "livemode", "first_seen_run", "last_seen_run", \
                "changed_run" FROM charges ORDER BY rowid;

                DROP TABLE charges;
                ALTER TABLE charges_v4 RENAME TO charges;
                CREATE INDEX "charges_on_last_seen_run" ON "charges"("last_seen_run", "id");
                CREATE INDEX "charges_on_transfer_id" ON "charges"("transfer_id");
                CREATE INDEX "charges_on_payment_intent_id" ON "charges"("payment_intent_id");
                CREATE INDEX "charges_on_created" ON "charges"("created");
                """)
        try db.execute(
            sql: """
                CREATE TABLE payment_intents_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL);
                INSERT INTO payment_intents_raw (id, raw) SELECT id, raw FROM payment_intents;

                CREATE TABLE "payment_intents_v4" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "application_fee_amount" INTEGER, \
                "transfer_destination" TEXT, "transfer_data_amount" INTEGER, "status" TEXT NOT NULL, \
                "latest_charge_id" TEXT, "livemode" BOOLEAN NOT NULL, "first_seen_run" INTEGER NOT NULL, \
                "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                INSERT INTO payment_intents_v4 ("id", "created", "currency", "amount", "application_fee_amount", \
                "transfer_destination", "transfer_data_amount", "status", "latest_charge_id", "livemode", \
                "first_seen_run", "last_seen_run", "changed_run") SELECT "id", "created", "currency", "amount", \
                "application_fee_amount", "transfer_destination", "transfer_data_amount", "status", \
                "latest_charge_id", "livemode", "first_seen_run", "last_seen_run", \
                "changed_run" FROM payment_intents ORDER BY rowid;

                DROP TABLE payment_intents;
                ALTER TABLE payment_intents_v4 RENAME TO payment_intents;
                CREATE INDEX "payment_intents_on_last_seen_run" ON "payment_intents"("last_seen_run", "id");
                CREATE INDEX "payment_intents_on_latest_charge_id" ON "payment_intents"("latest_charge_id");
                CREATE INDEX "payment_intents_on_created" ON "payment_intents"("created");
                """)
        try db.execute(
            sql: """
                CREATE TABLE transfers_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL);
                INSERT INTO transfers_raw (id, raw) SELECT id, raw FROM transfers;

                CREATE TABLE "transfers_v4" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "amount_reversed" INTEGER NOT NULL, \
                "destination" TEXT, "source_transaction_id" TEXT, "balance_transaction_id" TEXT, \
                "transfer_group" TEXT, "dispute_id_metadata" TEXT, "livemode" BOOLEAN NOT NULL, \
                "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                INSERT INTO transfers_v4 ("id", "created", "currency", "amount", "amount_reversed", "destination", \
                "source_transaction_id", "balance_transaction_id", "transfer_group", "dispute_id_metadata", \
                "livemode", "first_seen_run", "last_seen_run", "changed_run") SELECT "id", "created", "currency", \
                "amount", "amount_reversed", "destination", "source_transaction_id", "balance_transaction_id", \
                "transfer_group", "dispute_id_metadata", "livemode", "first_seen_run", "last_seen_run", \
                "changed_run" FROM transfers ORDER BY rowid;

                DROP TABLE transfers;
                ALTER TABLE transfers_v4 RENAME TO transfers;
                CREATE INDEX "transfers_on_last_seen_run" ON "transfers"("last_seen_run", "id");
                CREATE INDEX "transfers_on_dispute_id_metadata" ON "transfers"("dispute_id_metadata");
                CREATE INDEX "transfers_on_source_transaction_id" ON "transfers"("source_transaction_id");
                CREATE INDEX "transfers_on_created" ON "transfers"("created");
                """)
        try db.execute(
            sql: """
                CREATE TABLE transfer_reversals_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL);
                INSERT INTO transfer_reversals_raw (id, raw) SELECT id, raw FROM transfer_reversals;

                CREATE TABLE "transfer_reversals_v4" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "transfer_id" TEXT NOT NULL, "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, \
                "source_refund_id" TEXT, "balance_transaction_id" TEXT, "dispute_id_metadata" TEXT, \
                "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                INSERT INTO transfer_reversals_v4 ("id", "created", "transfer_id", "currency", "amount", \
                "source_refund_id", "balance_transaction_id", "dispute_id_metadata", "first_seen_run", \
                "last_seen_run", "changed_run") SELECT "id", "created", "transfer_id", "currency", "amount", \
                "source_refund_id", "balance_transaction_id", "dispute_id_metadata", "first_seen_run", \
                "last_seen_run", "changed_run" FROM transfer_reversals ORDER BY rowid;

                DROP TABLE transfer_reversals;
                ALTER TABLE transfer_reversals_v4 RENAME TO transfer_reversals;
                CREATE INDEX "transfer_reversals_on_transfer_id" ON "transfer_reversals"("transfer_id");
                CREATE INDEX "transfer_reversals_on_created" ON "transfer_reversals"("created");
                """)
        try db.execute(
            sql: """
                CREATE TABLE application_fees_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL);
                INSERT INTO application_fees_raw (id, raw) SELECT id, raw FROM application_fees;

                CREATE TABLE "application_fees_v4" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "amount_refunded" INTEGER NOT NULL, \
                "originating_charge_id" TEXT, "account_id" TEXT, "balance_transaction_id" TEXT, \
                "livemode" BOOLEAN NOT NULL, "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, \
                "changed_run" INTEGER NOT NULL);
                INSERT INTO application_fees_v4 ("id", "created", "currency", "amount", "amount_refunded", \
                "originating_charge_id", "account_id", "balance_transaction_id", "livemode", "first_seen_run", \
                "last_seen_run", "changed_run") SELECT "id", "created", "currency", "amount", "amount_refunded", \
                "originating_charge_id", "account_id", "balance_transaction_id", "livemode", "first_seen_run", \
                "last_seen_run", "changed_run" FROM application_fees ORDER BY rowid;

                DROP TABLE application_fees;
                ALTER TABLE application_fees_v4 RENAME TO application_fees;
                CREATE INDEX "application_fees_on_last_seen_run" ON "application_fees"("last_seen_run", "id");
                CREATE INDEX "application_fees_on_originating_charge_id" ON "application_fees"("originating_charge_id");
                CREATE INDEX "application_fees_on_created" ON "application_fees"("created");
                """)
        try db.execute(
            sql: """
                CREATE TABLE fee_refunds_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL);
                INSERT INTO fee_refunds_raw (id, raw) SELECT id, raw FROM fee_refunds;

                CREATE TABLE "fee_refunds_v4" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "fee_id" TEXT NOT NULL, "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, \
                "balance_transaction_id" TEXT, "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, \
                "changed_run" INTEGER NOT NULL);
                INSERT INTO fee_refunds_v4 ("id", "created", "fee_id", "currency", "amount", "balance_transaction_id", \
                "first_seen_run", "last_seen_run", "changed_run") SELECT "id", "created", "fee_id", "currency", \
                "amount", "balance_transaction_id", "first_seen_run", "last_seen_run", \
                "changed_run" FROM fee_refunds ORDER BY rowid;

                DROP TABLE fee_refunds;
                ALTER TABLE fee_refunds_v4 RENAME TO fee_refunds;
                CREATE INDEX "fee_refunds_on_fee_id" ON "fee_refunds"("fee_id");
                CREATE INDEX "fee_refunds_on_created" ON "fee_refunds"("created");
                """)
        try db.execute(
            sql: """
                CREATE TABLE refunds_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL);
                INSERT INTO refunds_raw (id, raw) SELECT id, raw FROM refunds;

                CREATE TABLE "refunds_v4" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "charge_id" TEXT, "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "status" TEXT, \
                "transfer_reversal_id" TEXT, "balance_transaction_id" TEXT, "first_seen_run" INTEGER NOT NULL, \
                "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                INSERT INTO refunds_v4 ("id", "created", "charge_id", "currency", "amount", "status", \
                "transfer_reversal_id", "balance_transaction_id", "first_seen_run", "last_seen_run", \
                "changed_run") SELECT "id", "created", "charge_id", "currency", "amount", "status", \
                "transfer_reversal_id", "balance_transaction_id", "first_seen_run", "last_seen_run", \
                "changed_run" FROM refunds ORDER BY rowid;

                DROP TABLE refunds;
                ALTER TABLE refunds_v4 RENAME TO refunds;
                CREATE INDEX "refunds_on_charge_id" ON "refunds"("charge_id");
                CREATE INDEX "refunds_on_created" ON "refunds"("created");
                """)
        try db.execute(
            sql: """
                CREATE TABLE disputes_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL);
                INSERT INTO disputes_raw (id, raw) SELECT id, raw FROM disputes;

                CREATE TABLE "disputes_v4" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "charge_id" TEXT NOT NULL, "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, \
                "status" TEXT NOT NULL, "balance_transaction_ids" TEXT NOT NULL, "first_seen_run" INTEGER NOT NULL, \
                "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                INSERT INTO disputes_v4 ("id", "created", "charge_id", "currency", "amount", "status", \
                "balance_transaction_ids", "first_seen_run", "last_seen_run", "changed_run") SELECT "id", "created", \
                "charge_id", "currency", "amount", "status", "balance_transaction_ids", "first_seen_run", \
                "last_seen_run", "changed_run" FROM disputes ORDER BY rowid;

                DROP TABLE disputes;
                ALTER TABLE disputes_v4 RENAME TO disputes;
                CREATE INDEX "disputes_on_charge_id" ON "disputes"("charge_id");
                CREATE INDEX "disputes_on_created" ON "disputes"("created");
                """)
        try db.execute(
            sql: """
                CREATE TABLE balance_transactions_raw (id TEXT PRIMARY KEY NOT NULL, raw TEXT NOT NULL);
                INSERT INTO balance_transactions_raw (id, raw) SELECT id, raw FROM balance_transactions;

                CREATE TABLE "balance_transactions_v4" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "fee" INTEGER NOT NULL, "net" INTEGER NOT NULL, \
                "type" TEXT NOT NULL, "reporting_category" TEXT NOT NULL, "source_id" TEXT, "exchange_rate" DOUBLE, \
                "status" TEXT NOT NULL, "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, \
                "changed_run" INTEGER NOT NULL);
                INSERT INTO balance_transactions_v4 ("id", "created", "currency", "amount", "fee", "net", "type", \
                "reporting_category", "source_id", "exchange_rate", "status", "first_seen_run", "last_seen_run", \
                "changed_run") SELECT "id", "created", "currency", "amount", "fee", "net", "type", \
                "reporting_category", "source_id", "exchange_rate", "status", "first_seen_run", "last_seen_run", \
                "changed_run" FROM balance_transactions ORDER BY rowid;

                DROP TABLE balance_transactions;
                ALTER TABLE balance_transactions_v4 RENAME TO balance_transactions;
                CREATE INDEX "balance_transactions_on_last_seen_run" ON "balance_transactions"("last_seen_run", "id");
                CREATE INDEX "balance_transactions_on_source_id" ON "balance_transactions"("source_id");
                CREATE INDEX "balance_transactions_on_created" ON "balance_transactions"("created");
                """)
    }
}
