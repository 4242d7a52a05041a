import GRDB

extension HistoryMigrations {
    /// v3: the last completed run that reported the finding. A finding only a failed or killed run saw is still
    /// new to the next run (its report never reached anyone).
    static func v3FindingsReportedRun(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE "findings" ADD COLUMN "reported_run" INTEGER REFERENCES "runs"("id");
                """)
    }
}
