import ReconCore

// MARK: - Connected-account statements and the per-day series, added up as the rows are made

/// A connected account's statement in one currency.
struct AccountKey: Hashable {
    let account: String?
    let currency: Currency
}

/// One currency's figures on one day of the range.
struct DayKey: Hashable {
    let currency: Currency
    let day: Int
}

extension ReportBuilder {
    /// Adds a `platform_fees` row to its account's statement and to its day of the series.
    mutating func addToStatement(_ row: PlatformFeeRow) {
        let key = AccountKey(account: row.destinationAccount, currency: row.currency)
        var statement = accounts[key] ?? ConnectedAccountRow(destinationAccount: key.account, currency: key.currency)
        statement.destinationCharges += 1
        let fields: [(WritableKeyPath<ConnectedAccountRow, Int64>, Int64?, String)] = [
            (\.gross, row.amount, "gross"), (\.refunded, row.amountRefunded, "refunded"),
            (\.transferred, row.transferAmount ?? 0, "transferred"),
            (\.reversed, row.transferReversed ?? 0, "reversed"),
            (\.applicationFees, row.applicationFeeKept ?? 0, "application fees"),
            (\.destinationPlatformFee, row.destinationPlatformFee, "destination platform fee"),
        ]
        for (field, value, what) in fields {
            add(value, to: field, of: &statement, objectID: row.chargeID, created: row.created, what: what)
        }
        accounts[key] = statement

        guard let day = days?.index(of: row.created) else { return }
        let dayKey = DayKey(currency: row.currency, day: day)
        var point = daily[dayKey] ?? (count: 0, fee: 0)
        point.count += 1
        if let fee = Checked.add(point.fee, row.destinationPlatformFee) {
            point.fee = fee
        } else {
            overflow(row.chargeID, currency: row.currency, created: row.created, what: "daily destination platform fee")
        }
        daily[dayKey] = point
    }

    /// Adds a skipped transfer to the statement of the account it was meant for.
    mutating func addToStatement(_ row: SkippedTransferRow) {
        let key = AccountKey(account: row.intendedDestination, currency: row.currency)
        var statement = accounts[key] ?? ConnectedAccountRow(destinationAccount: key.account, currency: key.currency)
        statement.skippedTransfers += 1
        add(
            row.amountOwed, to: \.amountOwed, of: &statement, objectID: row.chargeID, created: row.created, what: "owed"
        )
        accounts[key] = statement
    }

    /// Adds an unreversed dispute to the statement of the account its transfer went to.
    mutating func addToStatement(_ row: UnreversedDisputeRow) {
        let key = AccountKey(account: row.destinationAccount, currency: row.currency)
        var statement = accounts[key] ?? ConnectedAccountRow(destinationAccount: key.account, currency: key.currency)
        statement.unreversedDisputes += 1
        add(
            row.unrecovered, to: \.unrecovered, of: &statement, objectID: row.disputeID, created: row.created,
            what: "unrecovered")
        accounts[key] = statement
    }

    /// Adds `value` to `field` of the statement of `account` in `currency` and to the Summary's `summaryField`: the
    /// platform's other money (account debits, losses covered) counted for one object. An overflow leaves the figure
    /// out of both and says so.
    mutating func addToStatementAndSummary(
        account: String?, currency: Currency, _ field: WritableKeyPath<ConnectedAccountRow, Int64>,
        _ summaryField: WritableKeyPath<SummaryRow, Int64>, _ value: Int64, objectID: String, created: Int64,
        what: String
    ) {
        let key = AccountKey(account: account, currency: currency)
        var statement = accounts[key] ?? ConnectedAccountRow(destinationAccount: account, currency: currency)
        guard add(value, to: field, of: &statement, objectID: objectID, created: created, what: what) else { return }
        accounts[key] = statement
        addToSummary(currency, summaryField, value, objectID: objectID, created: created, what: what)
    }

    /// `statement[field] += value`; an overflow (or a `nil` value: its own difference overflowed) leaves the
    /// figure out, says so, as the summary does, and returns `false`.
    @discardableResult
    private mutating func add(
        _ value: Int64?, to field: WritableKeyPath<ConnectedAccountRow, Int64>, of statement: inout ConnectedAccountRow,
        objectID: String, created: Int64, what: String
    ) -> Bool {
        guard let value, let total = Checked.add(statement[keyPath: field], value) else {
            let account = statement.destinationAccount ?? "unknown account"
            overflow(objectID, currency: statement.currency, created: created, what: "\(what) total of \(account)")
            return false
        }
        statement[keyPath: field] = total
        return true
    }

    // MARK: Results

    /// The statements in the report's order.
    func connectedAccountRows() -> [ConnectedAccountRow] {
        accounts.values.sorted(by: ConnectedAccountRow.reportOrder)
    }

    /// Every day of the range for every currency with destination charges, zero on days without any.
    func dailyPlatformFeeRows() -> [DailyPlatformFeeRow] {
        guard let days else { return [] }
        let currencies = Set(daily.keys.map(\.currency)).sorted()
        return currencies.flatMap { currency in
            days.days.indices.map { index in
                let point = daily[DayKey(currency: currency, day: index)] ?? (count: 0, fee: 0)
                return DailyPlatformFeeRow(
                    day: days.days[index].date, currency: currency, destinationCharges: point.count,
                    destinationPlatformFee: point.fee)
            }
        }
    }
}

// MARK: - Findings by kind

/// Counts a report's findings by kind and status, for the Summary.
public enum FindingCounts {
    /// One row per finding kind that occurs in `report` (skipped transfers, unreversed disputes, exceptions by
    /// kind) or in `resolvedKinds` (the kinds of the findings of earlier runs that are gone, one entry each),
    /// sorted by kind.
    public static func rows(of report: ReconciliationReport, resolvedKinds: [String] = []) -> [FindingCountRow] {
        var rows: [String: FindingCountRow] = [:]
        func count(_ kind: String, _ status: FindingStatus?) {
            var row = rows[kind] ?? FindingCountRow(kind: kind)
            switch status {
            case .new?: row.new += 1
            case .open?: row.open += 1
            case nil: row.resolved += 1
            }
            rows[kind] = row
        }
        for row in report.skippedTransfers { count(SkippedTransferRow.findingKind, row.status) }
        for row in report.unreversedDisputes { count(UnreversedDisputeRow.findingKind, row.status) }
        for row in report.exceptions { count(row.kind.rawValue, row.status) }
        for kind in resolvedKinds { count(kind, nil) }
        return rows.values.sorted { $0.kind < $1.kind }
    }
}
