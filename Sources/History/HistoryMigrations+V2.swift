import GRDB

extension HistoryMigrations {
    /// v2: follow-ups ask which referenced ids the run chain has already seen (`id … WHERE last_seen_run IN …`).
    /// `last_seen_run` is stored after the raw JSON, so without an index each such question read every row's JSON
    /// in full: minutes for a million charges. A covering index answers from the index alone.
    static func v2LastSeenIndexes(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX "charges_on_last_seen_run" ON "charges"("last_seen_run", "id");
                CREATE INDEX "payment_intents_on_last_seen_run" ON "payment_intents"("last_seen_run", "id");
                CREATE INDEX "transfers_on_last_seen_run" ON "transfers"("last_seen_run", "id");
                CREATE INDEX "application_fees_on_last_seen_run" ON "application_fees"("last_seen_run", "id");
                CREATE INDEX "balance_transactions_on_last_seen_run" ON "balance_transactions"("last_seen_run", "id");
                """)
    }
}
