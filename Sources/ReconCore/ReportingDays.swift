import Foundation

/// The calendar days a range covers in a time zone, for the report's per-day series.
///
/// The first day starts at the range's `from` and the last ends at its `to`; the days between start at local
/// midnight (so a day around a DST change is 23 or 25 hours long). A range that does not start at midnight has a
/// shorter first day, but each day keeps its local date.
///
/// ```swift
/// let days = ReportingDays(from: 1_795_132_800, to: 1_795_219_200, timeZone: .gmt)
/// days.days.map(\.date)                 // ["2026-11-20"]
/// days.index(of: 1_795_182_307)         // 0
/// ```
public struct ReportingDays: Sendable, Hashable {
    /// One day of the range.
    public struct Day: Sendable, Hashable, Codable {
        /// Where the day starts inside the range, Unix seconds.
        public var start: Int64
        /// Its local date, `2026-11-20`.
        public var date: String

        public init(start: Int64, date: String) {
            self.start = start
            self.date = date
        }
    }

    /// The days in order; empty only for an empty range.
    public let days: [Day]
    /// The IANA name of the time zone the days are counted in (`UTC`, `Europe/Berlin`…).
    public let timeZoneIdentifier: String
    private let to: Int64

    /// The days of `[from, to)` in `timeZone`. At most 3,661 days are listed (a range is at most 3,660 days
    /// long); a longer range's objects after the last listed day count in it.
    public init(from: Int64, to: Int64, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var days: [Day] = []
        var start = from
        while start < to && days.count < 3_661 {
            let date = Date(timeIntervalSince1970: TimeInterval(start))
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let text = Self.dateText(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            days.append(Day(start: start, date: text))
            guard let end = calendar.dateInterval(of: .day, for: date)?.end else { break }
            let next = Int64(end.timeIntervalSince1970.rounded(.up))
            guard next > start else { break }
            start = next
        }
        self.days = days
        self.timeZoneIdentifier = timeZone.identifier
        self.to = to
    }

    /// The days of `range` in its own time zone.
    public init(_ range: ReportingRange) {
        let seconds = range.unixSeconds
        self.init(from: seconds.from, to: seconds.to, timeZone: range.timeZone)
    }

    /// The days of `[from, to)` in UTC.
    public static func utc(from: Int64, to: Int64) -> ReportingDays {
        ReportingDays(from: from, to: to, timeZone: .gmt)
    }

    /// The index in ``days`` of the day holding `created`; `nil` outside the range.
    public func index(of created: Int64) -> Int? {
        guard let first = days.first, created >= first.start, created < to else { return nil }
        var low = 0
        var high = days.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if days[middle].start <= created { low = middle } else { high = middle }
        }
        return low
    }

    private static func dateText(year: Int, month: Int, day: Int) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }
}
