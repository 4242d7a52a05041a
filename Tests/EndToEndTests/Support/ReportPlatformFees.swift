import Foundation
import Testing

/// What a report folder's CSV files say about the destination platform fee: per day and currency (from
/// `platform_fees.csv`, days in UTC), per currency (`summary.csv`), and how much of it comes from charges whose
/// application fee is in another currency than the charge (a cross-border fee, converted at Stripe's rate).
struct ReportPlatformFees {
    /// One point of the daily series: `day|currency` → destination charges and the sum of their DPF, minor units.
    var daily: [String: (charges: Int, fee: Int64)] = [:]
    /// Currency → the Summary's `destination_platform_fee`, minor units, for each currency with destination charges.
    var summary: [String: Int64] = [:]
    /// Destination charges whose application fee is in another currency than the charge's.
    var crossCurrencyCharges = 0
    /// The sum of those charges' DPF, minor units of their currencies.
    var crossCurrencyFee: Int64 = 0

    /// Reads `report` (a report folder). The CSV files write amounts with their currency's exponent's digits, so
    /// removing the point gives minor units.
    init(report: URL) throws {
        for row in try Self.rows(report.appendingPathComponent("platform_fees.csv")) {
            let currency = try #require(row["currency"])
            let day = String(try #require(row["created_utc"]).prefix(10))
            let fee = try #require(Self.minorUnits(row["destination_platform_fee"]), "every DPF is known")
            let point = daily["\(day)|\(currency)"] ?? (charges: 0, fee: 0)
            daily["\(day)|\(currency)"] = (charges: point.charges + 1, fee: point.fee + fee)
            if let feeCurrency = row["application_fee_currency"], !feeCurrency.isEmpty, feeCurrency != currency {
                crossCurrencyCharges += 1
                crossCurrencyFee += fee
            }
        }
        for row in try Self.rows(report.appendingPathComponent("summary.csv")) where row["destination_charges"] != "0" {
            let fee = try #require(Self.minorUnits(row["destination_platform_fee"]))
            summary[try #require(row["currency"])] = fee
        }
    }

    /// The rows of a CSV file as column → field (the files hold no quoted fields where these tests look).
    static func rows(_ file: URL) throws -> [[String: String]] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let header = try #require(lines.first).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, fields))
        }
    }

    /// `12.34` → 1234, `-5` → -5; `nil` for an empty or missing field.
    static func minorUnits(_ field: String?) -> Int64? {
        guard let field, !field.isEmpty else { return nil }
        return Int64(field.replacingOccurrences(of: ".", with: ""))
    }

    /// Checks `table` (the rows of `daily_platform_fees` of one run, `day|currency|destination_charges|
    /// destination_platform_fee` a line, as ``TestHistoryBackend/query(_:_:)`` prints them) against the report: one
    /// row for every day of `days` and every currency with destination charges, each the report's figures (zero on
    /// days without charges), adding up per currency to the Summary's DPF.
    func expectMatches(_ table: String, days: [String], _ comment: String) {
        var totals: [String: Int64] = [:]
        var seen = Set<String>()
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let charges = Int(fields[2]), let fee = Int64(fields[3]) else {
                Issue.record("\(comment): unexpected row \(line)")
                continue
            }
            let key = "\(fields[0])|\(fields[1])"
            seen.insert(key)
            let expected = daily[key] ?? (charges: 0, fee: 0)
            #expect(charges == expected.charges && fee == expected.fee, "\(comment): \(key) is the report's")
            totals[fields[1], default: 0] += fee
        }
        let currencies = Set(summary.keys)
        #expect(seen.count == days.count * currencies.count, "\(comment): every day of every currency, once")
        #expect(Set(daily.keys).isSubset(of: seen), "\(comment): every day with destination charges")
        #expect(Set(seen.map { String($0.prefix(10)) }) == Set(days), "\(comment): the range's days")
        #expect(totals == summary, "\(comment): the days add up to the Summary's DPF per currency")
    }
}
