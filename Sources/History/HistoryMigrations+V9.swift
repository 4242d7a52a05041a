import GRDB

extension HistoryMigrations {
    /// v9: the report's daily platform fees, as each run found them, in place of the view that worked them out
    /// again. `platform_fees_per_charge` (v7) wrote SPEC §4's DPF formula a second time, in SQL, and disagreed with
    /// the report on cross-currency fees (it left them out; the report converts them at Stripe's rate). The view
    /// goes: one meaning of DPF, the report's. `daily_platform_fees` holds each run's Summary series (per day of the
    /// run's time zone and currency: the destination charges created that day and the sum of their DPF), written
    /// with the run when it completes; a failed run writes none.
    static func v9DailyPlatformFees(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP VIEW "platform_fees_per_charge";
                CREATE TABLE "daily_platform_fees" ("run_id" INTEGER NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE, \
                "day" TEXT NOT NULL, "currency" TEXT NOT NULL, "destination_charges" INTEGER NOT NULL, \
                "destination_platform_fee" INTEGER NOT NULL, PRIMARY KEY ("run_id", "day", "currency"));
                """)
    }
}
