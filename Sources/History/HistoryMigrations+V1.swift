import GRDB

extension HistoryMigrations {
    /// v1: the runs and their bookkeeping (checkpoints, changes, findings, finished searches, missing objects),
    /// and one table per object kind holding its facts, its raw JSON as Stripe sent it and the runs that saw it
    /// (`first_seen_run`, `last_seen_run`, and `changed_run`: the run that last saw its content change).
    ///
    /// `runs.status` is `running`, `completed` or `failed`; `runs.details` is JSON (counts, requests, totals);
    /// `changes.change` is `new` or `updated`; `findings.kind` is `skipped_transfer`, `unreversed_dispute` or an
    /// exception kind, and its range is that of the last run that reported it; `finished_searches.search` names
    /// a search such as `repayment dp_…`.
    static func v1ObjectsRunsCheckpoints(_ db: Database) throws {
        // Runs and what they record.
        try db.execute(
            sql: """
                CREATE TABLE "meta" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL);

                CREATE TABLE "runs" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "command" TEXT NOT NULL, \
                "range_from" INTEGER NOT NULL, "range_to" INTEGER NOT NULL, "time_zone" TEXT NOT NULL, \
                "mode" TEXT NOT NULL, "status" TEXT NOT NULL, "started_at" INTEGER NOT NULL, "finished_at" INTEGER, \
                "pid" INTEGER NOT NULL, "tool_version" TEXT NOT NULL, "stripe_version" TEXT NOT NULL, \
                "api_base" TEXT NOT NULL, "resumed_from" INTEGER REFERENCES "runs"("id"), "message" TEXT, \
                "details" TEXT);
                CREATE INDEX "runs_on_range" ON "runs"("range_from", "range_to");

                CREATE TABLE "checkpoints" ("run_id" INTEGER NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE, \
                "resource" TEXT NOT NULL, "window_from" INTEGER NOT NULL, "window_to" INTEGER NOT NULL, \
                "objects" INTEGER NOT NULL, "completed_at" INTEGER NOT NULL, PRIMARY KEY ("run_id", "resource", \
                "window_from", "window_to"));

                CREATE TABLE "changes" ("run_id" INTEGER NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE, \
                "kind" TEXT NOT NULL, "object_id" TEXT NOT NULL, "change" TEXT NOT NULL, PRIMARY KEY ("run_id", \
                "kind", "object_id"));

                CREATE TABLE "findings" ("kind" TEXT NOT NULL, "object_id" TEXT NOT NULL, \
                "first_run" INTEGER NOT NULL REFERENCES "runs"("id"), \
                "last_run" INTEGER NOT NULL REFERENCES "runs"("id"), "resolved_run" INTEGER REFERENCES "runs"("id"), \
                "range_from" INTEGER NOT NULL, "range_to" INTEGER NOT NULL, PRIMARY KEY ("kind", "object_id"));

                CREATE TABLE "finished_searches" ("run_id" INTEGER NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE, \
                "search" TEXT NOT NULL, PRIMARY KEY ("run_id", "search"));

                CREATE TABLE "missing_objects" ("run_id" INTEGER NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE, \
                "kind" TEXT NOT NULL, "object_id" TEXT NOT NULL, "referenced_by" TEXT NOT NULL, "request_id" TEXT, \
                PRIMARY KEY ("run_id", "kind", "object_id"));
                """)
        // The object tables, each with an index on `created` and on the ids the rules look up.
        try db.execute(
            sql: """
                CREATE TABLE "charges" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "amount_captured" INTEGER NOT NULL, \
                "amount_refunded" INTEGER NOT NULL, "status" TEXT NOT NULL, "captured" BOOLEAN NOT NULL, \
                "payment_intent_id" TEXT, "transfer_id" TEXT, "application_fee_id" TEXT, \
                "application_fee_amount" INTEGER, "transfer_destination" TEXT, "transfer_data_amount" INTEGER, \
                "balance_transaction_id" TEXT, "livemode" BOOLEAN NOT NULL, "raw" TEXT NOT NULL, \
                "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                CREATE INDEX "charges_on_created" ON "charges"("created");
                CREATE INDEX "charges_on_payment_intent_id" ON "charges"("payment_intent_id");
                CREATE INDEX "charges_on_transfer_id" ON "charges"("transfer_id");

                CREATE TABLE "payment_intents" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "application_fee_amount" INTEGER, \
                "transfer_destination" TEXT, "transfer_data_amount" INTEGER, "status" TEXT NOT NULL, \
                "latest_charge_id" TEXT, "livemode" BOOLEAN NOT NULL, "raw" TEXT NOT NULL, \
                "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                CREATE INDEX "payment_intents_on_created" ON "payment_intents"("created");
                CREATE INDEX "payment_intents_on_latest_charge_id" ON "payment_intents"("latest_charge_id");

                CREATE TABLE "transfers" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "amount_reversed" INTEGER NOT NULL, \
                "destination" TEXT, "source_transaction_id" TEXT, "balance_transaction_id" TEXT, \
                "transfer_group" TEXT, "dispute_id_metadata" TEXT, "livemode" BOOLEAN NOT NULL, "raw" TEXT NOT NULL, \
                "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                CREATE INDEX "transfers_on_created" ON "transfers"("created");
                CREATE INDEX "transfers_on_source_transaction_id" ON "transfers"("source_transaction_id");
                CREATE INDEX "transfers_on_dispute_id_metadata" ON "transfers"("dispute_id_metadata");

                CREATE TABLE "transfer_reversals" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "transfer_id" TEXT NOT NULL, "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, \
                "source_refund_id" TEXT, "balance_transaction_id" TEXT, "dispute_id_metadata" TEXT, \
                "raw" TEXT NOT NULL, "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, \
                "changed_run" INTEGER NOT NULL);
                CREATE INDEX "transfer_reversals_on_created" ON "transfer_reversals"("created");
                CREATE INDEX "transfer_reversals_on_transfer_id" ON "transfer_reversals"("transfer_id");

                CREATE TABLE "application_fees" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "amount_refunded" INTEGER NOT NULL, \
                "originating_charge_id" TEXT, "account_id" TEXT, "balance_transaction_id" TEXT, \
                "livemode" BOOLEAN NOT NULL, "raw" TEXT NOT NULL, "first_seen_run" INTEGER NOT NULL, \
                "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                CREATE INDEX "application_fees_on_created" ON "application_fees"("created");
                CREATE INDEX "application_fees_on_originating_charge_id" ON "application_fees"("originating_charge_id");

                CREATE TABLE "fee_refunds" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "fee_id" TEXT NOT NULL, "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, \
                "balance_transaction_id" TEXT, "raw" TEXT NOT NULL, "first_seen_run" INTEGER NOT NULL, \
                "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                CREATE INDEX "fee_refunds_on_created" ON "fee_refunds"("created");
                CREATE INDEX "fee_refunds_on_fee_id" ON "fee_refunds"("fee_id");

                CREATE TABLE "refunds" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, "charge_id" TEXT, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "status" TEXT, "transfer_reversal_id" TEXT, \
                "balance_transaction_id" TEXT, "raw" TEXT NOT NULL, "first_seen_run" INTEGER NOT NULL, \
                "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                CREATE INDEX "refunds_on_created" ON "refunds"("created");
                CREATE INDEX "refunds_on_charge_id" ON "refunds"("charge_id");

                CREATE TABLE "disputes" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "charge_id" TEXT NOT NULL, "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, \
                "status" TEXT NOT NULL, "balance_transaction_ids" TEXT NOT NULL, "raw" TEXT NOT NULL, \
                "first_seen_run" INTEGER NOT NULL, "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                CREATE INDEX "disputes_on_created" ON "disputes"("created");
                CREATE INDEX "disputes_on_charge_id" ON "disputes"("charge_id");

                CREATE TABLE "balance_transactions" ("id" TEXT PRIMARY KEY NOT NULL, "created" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "amount" INTEGER NOT NULL, "fee" INTEGER NOT NULL, "net" INTEGER NOT NULL, \
                "type" TEXT NOT NULL, "reporting_category" TEXT NOT NULL, "source_id" TEXT, "exchange_rate" DOUBLE, \
                "status" TEXT NOT NULL, "raw" TEXT NOT NULL, "first_seen_run" INTEGER NOT NULL, \
                "last_seen_run" INTEGER NOT NULL, "changed_run" INTEGER NOT NULL);
                CREATE INDEX "balance_transactions_on_created" ON "balance_transactions"("created");
                CREATE INDEX "balance_transactions_on_source_id" ON "balance_transactions"("source_id");
                """)
    }
}
