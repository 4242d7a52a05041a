import ReconCore

/// The report's daily platform fees as each run found them (table `daily_platform_fees`, schema v9): what people
/// who query the history read for DPF, rather than working it out again in SQL, so that the history and the report
/// always say the same (docs/RULES.md's one meaning of DPF, cross-currency fees converted as the report converts them).
extension HistoryRuns {
    /// Records run `runID` as completed, as ``finishRun(_:status:finishedAt:message:details:)`` does, together with
    /// its report's per-day series (``ReconciliationReport/dailyPlatformFees``: per day of the range and currency,
    /// the destination charges created that day and the sum of their `destination_platform_fee`), in one
    /// transaction: the figures are there exactly when the run is recorded completed. A failed run records none; a
    /// run of the same range again records its own rows, next to the earlier runs'.
    public func completeRun(
        _ runID: Int64, finishedAt: Int64, details: String?, dailyPlatformFees rows: [DailyPlatformFeeRow]
    ) throws(HistoryError) {
        try write { db in
            try db.executeEach(
                """
                INSERT INTO daily_platform_fees (run_id, day, currency, destination_charges, destination_platform_fee)
                VALUES (?, ?, ?, ?, ?)
                """,
                rows.map {
                    [
                        .integer(runID), .text($0.day), .text($0.currency.rawValue),
                        .integer(Int64($0.destinationCharges)), .integer($0.destinationPlatformFee),
                    ]
                }
            ) { _, _ in }
            try Self.finishRun(db, runID, status: .completed, finishedAt: finishedAt, message: nil, details: details)
        }
    }

    /// The per-day series run `runID` recorded (``completeRun(_:finishedAt:details:dailyPlatformFees:)``), in the
    /// report's order: by currency, then day. Empty for a run that recorded none (failed, or not a reconcile).
    public func dailyPlatformFees(run runID: Int64) throws(HistoryError) -> [DailyPlatformFeeRow] {
        let path = self.path
        return try read { db in
            try db.all(
                """
                SELECT day, currency, destination_charges, destination_platform_fee FROM daily_platform_fees
                WHERE run_id = ? ORDER BY currency, day
                """, [.integer(runID)]
            ) { row in
                guard let currency = Currency(rawValue: try row.decode(String.self, atIndex: 1)) else {
                    throw HistoryError.corrupt(path: path)
                }
                return DailyPlatformFeeRow(
                    day: try row.decode(atIndex: 0), currency: currency, destinationCharges: try row.decode(atIndex: 2),
                    destinationPlatformFee: try row.decode(atIndex: 3))
            }
        }
    }
}
