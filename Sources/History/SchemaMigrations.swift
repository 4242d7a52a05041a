/// The history's migrations from v9 on, each written once for both databases: its identifier, the SQL SQLite executes
/// and the SQL PostgreSQL executes (several statements separated by `;`). `HistoryMigrations` registers them after its
/// own, and `PostgreSQLMigrations` lists them after its own, so a schema change is one entry here.
///
/// As every migration, each is frozen once shipped: its SQL is written out here and never built from a helper or a
/// constant that could change later; `ShippedMigrationsTests` records what each executes on both databases. To
/// change the schema, append an entry (the types map as `PostgreSQLMigrations` says: `INTEGER` is `BIGINT`, `TEXT`
/// is `TEXT COLLATE "C"`) and its two digests, which the failing test prints. Never edit one, its identifier or its
/// place in the order.
enum SchemaMigrations {
    /// One migration, in both dialects.
    struct Migration: Sendable {
        let identifier: String
        let sqlite: String
        let postgreSQL: String

        init(identifier: String, sqlite: String, postgreSQL: String) {
            self.identifier = identifier
            self.sqlite = sqlite
            self.postgreSQL = postgreSQL
        }

        /// A migration whose SQL both databases run as it is.
        init(identifier: String, bothDatabases sql: String) {
            self.init(identifier: identifier, sqlite: sql, postgreSQL: sql)
        }
    }

    static let all: [Migration] = [
        // v9: the report's daily platform fees, as each run found them, in place of the view that worked them out
        // again. `platform_fees_per_charge` (v7) wrote docs/RULES.md's DPF formula a second time, in SQL, and disagreed
        // with the report on cross-currency fees (it left them out; the report converts them at Stripe's rate). The
        // view goes: one meaning of DPF, the report's. `daily_platform_fees` holds each run's Summary series (per
        // day of the run's time zone and currency: the destination charges created that day and the sum of their
        // DPF), written with the run when it completes; a failed run writes none.
        Migration(
            identifier: "v9-daily-platform-fees",
            sqlite: """
                DROP VIEW "platform_fees_per_charge";
                CREATE TABLE "daily_platform_fees" ("run_id" INTEGER NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE, \
                "day" TEXT NOT NULL, "currency" TEXT NOT NULL, "destination_charges" INTEGER NOT NULL, \
                "destination_platform_fee" INTEGER NOT NULL, PRIMARY KEY ("run_id", "day", "currency"));
                """,
            postgreSQL: """
                DROP VIEW "platform_fees_per_charge";
                CREATE TABLE "daily_platform_fees" ("run_id" BIGINT NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE, \
                "day" TEXT COLLATE "C" NOT NULL, "currency" TEXT COLLATE "C" NOT NULL, \
                "destination_charges" BIGINT NOT NULL, "destination_platform_fee" BIGINT NOT NULL, \
                PRIMARY KEY ("run_id", "day", "currency"));
                """),
        // v10: `refund_without_transfer_reversal` (a finding per refund that named no reversal) became
        // `refund_not_recovered` (a finding per charge whose connected account gave back less than its share of the
        // refunds). A stored finding of the old kind is carried over to its refund's charge under the new name, so an
        // open one stays open (the earliest first and reported runs, the latest last run; resolved only when every
        // one it merges was) instead of being resolved and raised again; one whose refund the history lacks keeps
        // its id.
        Migration(
            identifier: "v10-refund-not-recovered",
            bothDatabases: """
                INSERT INTO findings (kind, object_id, first_run, last_run, resolved_run, range_from, range_to,
                                      reported_run, subject_id, subject_created)
                SELECT 'refund_not_recovered', r.charge_id, MIN(f.first_run), MAX(f.last_run),
                       CASE WHEN COUNT(*) = COUNT(f.resolved_run) THEN MAX(f.resolved_run) END,
                       MIN(f.range_from), MAX(f.range_to), MIN(f.reported_run),
                       (SELECT g.subject_id FROM findings g JOIN refunds q ON q.id = g.object_id
                        WHERE g.kind = 'refund_without_transfer_reversal' AND q.charge_id = r.charge_id
                        ORDER BY g.subject_created DESC, g.subject_id DESC LIMIT 1),
                       MAX(f.subject_created)
                FROM findings f JOIN refunds r ON r.id = f.object_id
                WHERE f.kind = 'refund_without_transfer_reversal' AND r.charge_id IS NOT NULL
                GROUP BY r.charge_id
                ON CONFLICT (kind, object_id) DO NOTHING;
                DELETE FROM findings WHERE kind = 'refund_without_transfer_reversal'
                  AND object_id IN (SELECT id FROM refunds WHERE charge_id IS NOT NULL);
                UPDATE findings SET kind = 'refund_not_recovered' WHERE kind = 'refund_without_transfer_reversal';
                """),
        // v11: a refund's `reason`, read from each stored refund's JSON (only the rows whose JSON names one are
        // written: rewriting every row of a large history left its tables fragmented, a third slower to read):
        // `expired_uncaptured_charge` marks the refund of an authorisation Stripe released (docs/RULES.md, "Partial and
        // multiple captures"), never a refund to the customer.
        Migration(
            identifier: "v11-refund-reason",
            sqlite: """
                ALTER TABLE "refunds" ADD COLUMN "reason" TEXT;
                UPDATE refunds SET reason =
                    (SELECT json_extract(r.raw, '$.reason') FROM refunds_raw r WHERE r.id = refunds.id)
                WHERE id IN (SELECT id FROM refunds_raw WHERE json_extract(raw, '$.reason') IS NOT NULL);
                """,
            postgreSQL: """
                ALTER TABLE "refunds" ADD COLUMN "reason" TEXT COLLATE "C";
                UPDATE "refunds" SET "reason" =
                    (SELECT r."raw"::jsonb ->> 'reason' FROM "refunds_raw" r WHERE r."id" = "refunds"."id")
                WHERE "id" IN (SELECT "id" FROM "refunds_raw" WHERE "raw"::jsonb ->> 'reason' IS NOT NULL);
                """),
        // v12: the transfer group of each charge and PaymentIntent (docs/RULES.md, "Separate charges and transfers"),
        // read from each stored object's JSON (only the rows that have one are written, as in v11), and indexes to
        // find a group's charges and transfers by it.
        Migration(
            identifier: "v12-transfer-groups",
            sqlite: """
                ALTER TABLE "charges" ADD COLUMN "transfer_group" TEXT;
                UPDATE charges SET transfer_group =
                    (SELECT json_extract(r.raw, '$.transfer_group') FROM charges_raw r WHERE r.id = charges.id)
                WHERE id IN (SELECT id FROM charges_raw WHERE json_extract(raw, '$.transfer_group') IS NOT NULL);
                ALTER TABLE "payment_intents" ADD COLUMN "transfer_group" TEXT;
                UPDATE payment_intents SET transfer_group =
                    (SELECT json_extract(r.raw, '$.transfer_group') FROM payment_intents_raw r
                     WHERE r.id = payment_intents.id)
                WHERE id IN (SELECT id FROM payment_intents_raw WHERE json_extract(raw, '$.transfer_group') IS NOT NULL);
                CREATE INDEX "charges_on_transfer_group" ON "charges"("transfer_group");
                CREATE INDEX "payment_intents_on_transfer_group" ON "payment_intents"("transfer_group");
                CREATE INDEX "transfers_on_transfer_group" ON "transfers"("transfer_group");
                """,
            postgreSQL: """
                ALTER TABLE "charges" ADD COLUMN "transfer_group" TEXT COLLATE "C";
                UPDATE "charges" SET "transfer_group" =
                    (SELECT r."raw"::jsonb ->> 'transfer_group' FROM "charges_raw" r WHERE r."id" = "charges"."id")
                WHERE "id" IN (SELECT "id" FROM "charges_raw" WHERE "raw"::jsonb ->> 'transfer_group' IS NOT NULL);
                ALTER TABLE "payment_intents" ADD COLUMN "transfer_group" TEXT COLLATE "C";
                UPDATE "payment_intents" SET "transfer_group" =
                    (SELECT r."raw"::jsonb ->> 'transfer_group' FROM "payment_intents_raw" r
                     WHERE r."id" = "payment_intents"."id")
                WHERE "id" IN (SELECT "id" FROM "payment_intents_raw"
                               WHERE "raw"::jsonb ->> 'transfer_group' IS NOT NULL);
                CREATE INDEX "charges_on_transfer_group" ON "charges"("transfer_group");
                CREATE INDEX "payment_intents_on_transfer_group" ON "payment_intents"("transfer_group");
                CREATE INDEX "transfers_on_transfer_group" ON "transfers"("transfer_group");
                """),
        // v13: whether each charge has been disputed (`disputed`), read from each stored charge's JSON (only the rows
        // whose JSON says `true` are written, as in v11). The follow-ups list a disputed charge's disputes when the
        // history holds none; they asked each charge's JSON, parsed again twice a run for every charge of the range.
        Migration(
            identifier: "v13-charge-disputed",
            sqlite: """
                ALTER TABLE "charges" ADD COLUMN "disputed" BOOLEAN NOT NULL DEFAULT FALSE;
                UPDATE charges SET disputed = TRUE
                WHERE id IN (SELECT id FROM charges_raw WHERE json_extract(raw, '$.disputed') = 1);
                """,
            postgreSQL: """
                ALTER TABLE "charges" ADD COLUMN "disputed" BOOLEAN NOT NULL DEFAULT FALSE;
                UPDATE "charges" SET "disputed" = TRUE
                WHERE "id" IN (SELECT "id" FROM "charges_raw" WHERE ("raw"::jsonb -> 'disputed') = 'true'::jsonb);
                """),
        // v14: the books close (docs/RULES.md). Every run that reads Stripe keeps what `GET /v1/balance` said
        // (`balance_snapshots`, one per run: its moment, the balance transactions the run listed from `covered_from` to
        // `covered_to`, the balance types it reported and Stripe's JSON; `balance_snapshot_amounts`, its amounts per
        // currency and balance type), so a range is anchored on the nearest snapshot after it and proven continuous
        // with the earlier ones. `stripe_reports` keeps Stripe's own Balance report of each range and currency as
        // the run that compared it found it (or why it could not), so a range Stripe had not published yet is
        // compared by a later run.
        Migration(
            identifier: "v14-balance-snapshots",
            sqlite: """
                CREATE TABLE "balance_snapshots" ("run_id" INTEGER PRIMARY KEY NOT NULL REFERENCES "runs"("id") \
                ON DELETE CASCADE, "taken_at" INTEGER NOT NULL, "covered_from" INTEGER NOT NULL, \
                "covered_to" INTEGER NOT NULL, "reported_types" TEXT NOT NULL, "raw" TEXT NOT NULL);
                CREATE INDEX "balance_snapshots_on_taken_at" ON "balance_snapshots"("taken_at");
                CREATE TABLE "balance_snapshot_amounts" ("run_id" INTEGER NOT NULL REFERENCES "runs"("id") \
                ON DELETE CASCADE, "currency" TEXT NOT NULL, \
                "balance_type" TEXT NOT NULL, "amount" INTEGER NOT NULL, PRIMARY KEY ("run_id", "currency", "balance_type"));
                CREATE TABLE "stripe_reports" ("range_from" INTEGER NOT NULL, "range_to" INTEGER NOT NULL, \
                "currency" TEXT NOT NULL, "status" TEXT NOT NULL, "starting_balance" INTEGER, "activity" INTEGER, \
                "payouts" INTEGER, "ending_balance" INTEGER, "categories" TEXT, "detail" TEXT, \
                "run_id" INTEGER NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE, \
                PRIMARY KEY ("range_from", "range_to", "currency"));
                CREATE INDEX "payouts_on_arrival_date" ON "payouts"("arrival_date");
                """,
            postgreSQL: """
                CREATE TABLE "balance_snapshots" ("run_id" BIGINT PRIMARY KEY NOT NULL REFERENCES "runs"("id") \
                ON DELETE CASCADE, "taken_at" BIGINT NOT NULL, "covered_from" BIGINT NOT NULL, \
                "covered_to" BIGINT NOT NULL, "reported_types" TEXT COLLATE "C" NOT NULL, "raw" TEXT COLLATE "C" NOT NULL);
                CREATE INDEX "balance_snapshots_on_taken_at" ON "balance_snapshots"("taken_at");
                CREATE TABLE "balance_snapshot_amounts" ("run_id" BIGINT NOT NULL REFERENCES "runs"("id") \
                ON DELETE CASCADE, "currency" TEXT COLLATE "C" NOT NULL, \
                "balance_type" TEXT COLLATE "C" NOT NULL, "amount" BIGINT NOT NULL, \
                PRIMARY KEY ("run_id", "currency", "balance_type"));
                CREATE TABLE "stripe_reports" ("range_from" BIGINT NOT NULL, "range_to" BIGINT NOT NULL, \
                "currency" TEXT COLLATE "C" NOT NULL, "status" TEXT COLLATE "C" NOT NULL, "starting_balance" BIGINT, \
                "activity" BIGINT, "payouts" BIGINT, "ending_balance" BIGINT, "categories" TEXT COLLATE "C", \
                "detail" TEXT COLLATE "C", "run_id" BIGINT NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE, \
                PRIMARY KEY ("range_from", "range_to", "currency"));
                CREATE INDEX "payouts_on_arrival_date" ON "payouts"("arrival_date");
                """),
        // v15: the platform's other money (docs/RULES.md). Each balance transaction's `description`: Stripe's costs
        // outside charges name the day they are for in it (`Card payments (2026-11-20): Stripe volume fees`); and each
        // charge's `on_behalf_of` (such a charge's dispute is recovered only once it is lost), payment method type and
        // `source` (an account debit is a `stripe_account` payment whose source is the account debited). Each read
        // from the stored JSON only for the rows a rule reads (the transactions that may be Stripe's costs: type
        // `stripe_fee` or `network_cost`, category `fee` or `network_cost`; the charges that name an account; the
        // `stripe_account` and `stripe_balance` payments): rewriting every row of a large history leaves its tables
        // fragmented, as v11 says. Every object stored from now on has them. `collection_transfers` keeps, per
        // `connect_collection_transfer` balance transaction, the connected account Stripe collected for (its source
        // expanded: no endpoint serves a collection transfer), or none when the source could not say, and the run
        // that read it. `charges_on_account_debits` finds the account debits by time (a few among many charges).
        Migration(
            identifier: "v15-other-money",
            sqlite: """
                ALTER TABLE "balance_transactions" ADD COLUMN "description" TEXT;
                UPDATE balance_transactions SET description =
                    (SELECT json_extract(r.raw, '$.description') FROM balance_transactions_raw r
                     WHERE r.id = balance_transactions.id)
                WHERE type IN ('stripe_fee', 'network_cost') OR reporting_category IN ('fee', 'network_cost');
                ALTER TABLE "charges" ADD COLUMN "on_behalf_of" TEXT;
                UPDATE charges SET on_behalf_of =
                    (SELECT json_extract(r.raw, '$.on_behalf_of') FROM charges_raw r WHERE r.id = charges.id)
                WHERE id IN (SELECT id FROM charges_raw WHERE json_extract(raw, '$.on_behalf_of') IS NOT NULL);
                ALTER TABLE "charges" ADD COLUMN "payment_method_type" TEXT;
                ALTER TABLE "charges" ADD COLUMN "source_id" TEXT;
                ALTER TABLE "charges" ADD COLUMN "metadata" TEXT;
                UPDATE charges SET
                    payment_method_type =
                        (SELECT json_extract(r.raw, '$.payment_method_details.type') FROM charges_raw r
                         WHERE r.id = charges.id),
                    source_id = (SELECT COALESCE(json_extract(r.raw, '$.source.id'), json_extract(r.raw, '$.source'))
                                 FROM charges_raw r WHERE r.id = charges.id),
                    metadata = (SELECT CASE WHEN json_extract(r.raw, '$.payment_method_details.type') = 'stripe_account'
                                            AND json_extract(r.raw, '$.metadata') <> '{}'
                                       THEN json_extract(r.raw, '$.metadata') END
                                FROM charges_raw r WHERE r.id = charges.id)
                WHERE id IN (SELECT id FROM charges_raw
                             WHERE json_extract(raw, '$.payment_method_details.type')
                                   IN ('stripe_account', 'stripe_balance'));
                CREATE TABLE "collection_transfers" ("balance_transaction_id" TEXT PRIMARY KEY NOT NULL, \
                "source_id" TEXT, "account" TEXT, \
                "run_id" INTEGER NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE);
                CREATE INDEX "charges_on_account_debits" ON "charges"("created")
                WHERE "payment_method_type" = 'stripe_account';
                """,
            postgreSQL: """
                ALTER TABLE "balance_transactions" ADD COLUMN "description" TEXT COLLATE "C";
                UPDATE "balance_transactions" SET "description" =
                    (SELECT r."raw"::jsonb ->> 'description' FROM "balance_transactions_raw" r
                     WHERE r."id" = "balance_transactions"."id")
                WHERE "type" IN ('stripe_fee', 'network_cost') OR "reporting_category" IN ('fee', 'network_cost');
                ALTER TABLE "charges" ADD COLUMN "on_behalf_of" TEXT COLLATE "C";
                UPDATE "charges" SET "on_behalf_of" =
                    (SELECT r."raw"::jsonb ->> 'on_behalf_of' FROM "charges_raw" r WHERE r."id" = "charges"."id")
                WHERE "id" IN (SELECT "id" FROM "charges_raw" WHERE "raw"::jsonb ->> 'on_behalf_of' IS NOT NULL);
                ALTER TABLE "charges" ADD COLUMN "payment_method_type" TEXT COLLATE "C";
                ALTER TABLE "charges" ADD COLUMN "source_id" TEXT COLLATE "C";
                ALTER TABLE "charges" ADD COLUMN "metadata" TEXT COLLATE "C";
                UPDATE "charges" SET
                    "payment_method_type" =
                        (SELECT r."raw"::jsonb -> 'payment_method_details' ->> 'type' FROM "charges_raw" r
                         WHERE r."id" = "charges"."id"),
                    "source_id" =
                        (SELECT CASE jsonb_typeof(r."raw"::jsonb -> 'source')
                                    WHEN 'object' THEN r."raw"::jsonb -> 'source' ->> 'id'
                                    ELSE r."raw"::jsonb ->> 'source' END
                         FROM "charges_raw" r WHERE r."id" = "charges"."id"),
                    "metadata" =
                        (SELECT CASE WHEN r."raw"::jsonb -> 'payment_method_details' ->> 'type' = 'stripe_account'
                                          AND r."raw"::jsonb -> 'metadata' <> '{}'::jsonb
                                     THEN (r."raw"::jsonb -> 'metadata')::text END
                         FROM "charges_raw" r WHERE r."id" = "charges"."id")
                WHERE "id" IN (SELECT "id" FROM "charges_raw"
                               WHERE "raw"::jsonb -> 'payment_method_details' ->> 'type'
                                     IN ('stripe_account', 'stripe_balance'));
                CREATE TABLE "collection_transfers" ("balance_transaction_id" TEXT COLLATE "C" PRIMARY KEY NOT NULL, \
                "source_id" TEXT COLLATE "C", "account" TEXT COLLATE "C", \
                "run_id" BIGINT NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE);
                CREATE INDEX "charges_on_account_debits" ON "charges"("created")
                WHERE "payment_method_type" = 'stripe_account';
                """),
        // v16: the transfer an account debit was made with (docs/RULES.md, "The platform's other money"). A debit
        // that names nothing itself is retrieved once with its `source_transfer` expanded; what that transfer says
        // (its id, metadata and group, all `NULL` when it had none) is kept beside the charge's row, which the
        // charges lists rewrite. No backfill: the raw JSON of a listed charge never holds the expanded transfer, so
        // the next run reads the range's debits.
        Migration(
            identifier: "v16-debit-source-transfers",
            sqlite: """
                CREATE TABLE "debit_source_transfers" ("charge_id" TEXT PRIMARY KEY NOT NULL, \
                "transfer_id" TEXT, "transfer_group" TEXT, "metadata" TEXT, \
                "run_id" INTEGER NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE);
                """,
            postgreSQL: """
                CREATE TABLE "debit_source_transfers" ("charge_id" TEXT COLLATE "C" PRIMARY KEY NOT NULL, \
                "transfer_id" TEXT COLLATE "C", "transfer_group" TEXT COLLATE "C", "metadata" TEXT COLLATE "C", \
                "run_id" BIGINT NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE);
                """),
    ]
}
