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
    }

    static let all: [Migration] = [
        // v9: the report's daily platform fees, as each run found them, in place of the view that worked them out
        // again. `platform_fees_per_charge` (v7) wrote SPEC §4's DPF formula a second time, in SQL, and disagreed
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
                """)
    ]
}
