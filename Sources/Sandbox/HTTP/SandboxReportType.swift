import Foundation
import ReconCore

/// The Reporting API's report types the sandbox serves, their columns, and their files as CSV.
enum SandboxReportType: String, CaseIterable, Sendable {
    case balanceSummary = "balance.summary.1"
    case activitySummary = "balance_change_from_activity.summary.1"

    var name: String {
        switch self {
        case .balanceSummary: "Balance summary"
        case .activitySummary: "Balance change from activity summary"
        }
    }

    /// Every column the sandbox can write, which is also what a run without `parameters[columns]` gets.
    var columns: [String] {
        switch self {
        case .balanceSummary: ["category", "description", "net_amount", "currency"]
        case .activitySummary: ["reporting_category", "currency", "count", "gross", "fee", "net"]
        }
    }

    /// Data is published up to the last UTC midnight at least 12 hours before the world's "now".
    static func dataAvailableEnd(_ storage: WorldStorage) -> Int64 {
        floorDiv(storage.end - 43_200, 86_400) * 86_400
    }

    /// The world's first day.
    static func dataAvailableStart(_ storage: WorldStorage) -> Int64 {
        floorDiv(storage.start, 86_400) * 86_400
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// The report's file: a header of `columns`, then its rows with those columns in that order, amounts in major
    /// units with the currency's decimals; a line's net moved by `offsets` (``SandboxOptions/reportLineOffsets``).
    func csv(
        _ figures: BalanceReportFigures, currency: WorldCurrency, columns: [String], offsets: [String: Int64] = [:]
    ) -> [UInt8] {
        let code = currency.code
        let exponent = currency.minorUnitDigits
        func amount(_ value: Int64) -> String { MinorUnitFormatter.string(value, exponent: exponent) }
        func offset(_ line: String) -> Int64 { offsets["\(rawValue)/\(code)/\(line)"] ?? 0 }
        var rows: [[String: String]] = []
        switch self {
        case .balanceSummary:
            let lines: [(String, String, Int64)] = [
                ("starting_balance", "Starting balance", figures.starting), ("activity", "Activity", figures.activity),
                ("payouts", "Payouts", figures.payouts), ("ending_balance", "Ending balance", figures.ending),
            ]
            rows = lines.map {
                ["category": $0.0, "description": $0.1, "net_amount": amount($0.2 + offset($0.0)), "currency": code]
            }
        case .activitySummary:
            rows = figures.activityRows.map {
                [
                    "reporting_category": $0.reportingCategory, "currency": code, "count": String($0.count),
                    "gross": amount($0.gross), "fee": amount($0.fee),
                    "net": amount($0.net + offset($0.reportingCategory)),
                ]
            }
        }
        var text = columns.map(Self.quoted).joined(separator: ",") + "\n"
        for row in rows {
            text += columns.map { Self.quoted(row[$0] ?? "") }.joined(separator: ",") + "\n"
        }
        return Array(text.utf8)
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
    private static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
