import GRDB

extension HistoryMigrations {
    /// v8: late outcomes (docs/EXTRACTION.md and docs/RULES.md). `late_reads` records, per run, each object of the
    /// look-back window that was not final and read again, with its state before (`state_before`), whether the read
    /// found it changed, and the run whose report judged the change (`judged_run`). Each finding records the object
    /// whose judging raised it (`subject_id`, `subject_created`): a run resolves an earlier finding only when it judged
    /// that object again. The findings already stored get their subject from the objects the history holds: the charge
    /// for a check of its fee or transfer, else the object itself; a `missing_object` has none.
    static func v8LateOutcomes(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE "late_reads" ("run_id" INTEGER NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE, \
                "kind" TEXT NOT NULL, "object_id" TEXT NOT NULL, "created" INTEGER NOT NULL, \
                "state_before" TEXT NOT NULL, "changed" BOOLEAN, "judged_run" INTEGER REFERENCES "runs"("id"), \
                PRIMARY KEY ("run_id", "kind", "object_id"));
                CREATE INDEX "late_reads_on_created" ON "late_reads"("created");

                ALTER TABLE "findings" ADD COLUMN "subject_id" TEXT;
                ALTER TABLE "findings" ADD COLUMN "subject_created" INTEGER;
                UPDATE findings SET subject_id =
                    (SELECT c.id FROM charges c WHERE c.application_fee_id = findings.object_id)
                WHERE kind IN ('application_fee_amount_mismatch', 'fee_currency_unconvertible');
                UPDATE findings SET subject_id =
                    (SELECT MIN(c.id) FROM charges c WHERE c.transfer_id = findings.object_id)
                WHERE kind IN ('transfer_amount_mismatch', 'transfer_currency_mismatch',
                               'transfer_destination_mismatch', 'transfer_of_another_charge');
                UPDATE findings SET subject_id = object_id WHERE subject_id IS NULL AND kind <> 'missing_object';
                UPDATE findings SET subject_created = COALESCE(
                    (SELECT created FROM charges WHERE id = findings.subject_id),
                    (SELECT created FROM refunds WHERE id = findings.subject_id),
                    (SELECT created FROM disputes WHERE id = findings.subject_id),
                    (SELECT created FROM transfers WHERE id = findings.subject_id),
                    (SELECT created FROM application_fees WHERE id = findings.subject_id),
                    (SELECT created FROM payouts WHERE id = findings.subject_id),
                    (SELECT created FROM balance_transactions WHERE id = findings.subject_id))
                WHERE subject_id IS NOT NULL;
                UPDATE findings SET subject_id = NULL WHERE subject_created IS NULL;
                CREATE INDEX "findings_on_subject_created" ON "findings"("subject_created");
                """)
    }
}
