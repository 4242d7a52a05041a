import Foundation

/// Turns the command line's `--from` / `--to` into a ``ReportingRange``.
///
/// - `YYYY-MM-DD` is midnight of that date in the configured time zone (so a day around a DST change is
///   23 or 25 hours long); an RFC 3339 timestamp is that instant.
/// - Neither given: the previous whole day in the time zone. Only `--from`: up to today's midnight.
///   Only `--to`: the one day before it.
public struct RangeResolver: Sendable {
    public let timeZone: TimeZone
    public let maximumDays: Int
    public let now: Date

    public init(timeZone: TimeZone, maximumDays: Int, now: Date) {
        self.timeZone = timeZone
        self.maximumDays = maximumDays
        self.now = now
    }

    /// Resolves a time zone name (IANA, or `UTC`), or throws ``RangeError/unknownTimeZone(_:)``.
    public static func timeZone(named name: String) throws(RangeError) -> TimeZone {
        let known = name == "UTC" || name == "GMT" || TimeZone.knownTimeZoneIdentifiers.contains(name)
        guard known, let zone = TimeZone(identifier: name) else { throw .unknownTimeZone(name) }
        return zone
    }

    /// The range for the given option values (either may be `nil`).
    public func resolve(from fromText: String?, to toText: String?) throws(RangeError) -> ReportingRange {
        let from: Date
        let to: Date
        switch (fromText, toText) {
        case (nil, nil):
            to = startOfDay(containing: now)
            from = try startOfDay(daysBefore: 1, midnight: to)
        case (let fromText?, nil):
            from = try parse(fromText, option: "--from")
            to = startOfDay(containing: now)
        case (nil, let toText?):
            to = try parse(toText, option: "--to")
            from = try startOfDay(daysBefore: 1, midnight: startOfDay(containing: to))
        case (let fromText?, let toText?):
            from = try parse(fromText, option: "--from")
            to = try parse(toText, option: "--to")
        }
        let range = try ReportingRange(from: from, to: to, timeZone: timeZone)
        guard from <= now else { throw .startsInFuture(from: RFC3339.string(from, in: timeZone)) }
        let days = calendar.dateComponents([.day], from: from, to: to).day ?? 0
        let spansMore = calendar.date(byAdding: .day, value: maximumDays, to: from).map { to > $0 } ?? true
        if spansMore { throw .tooLong(days: max(days, maximumDays + 1), maximum: maximumDays) }
        return range
    }

    /// Parses `YYYY-MM-DD` (midnight in the time zone) or an RFC 3339 timestamp.
    public func parse(_ text: String, option: String) throws(RangeError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = try parseCalendarDate(trimmed, option: option) { return date }
        if let date = try RFC3339.parse(trimmed, option: option) { return date }
        throw .malformedDate(option: option, value: text)
    }

    // MARK: - Calendar arithmetic in the configured zone

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    private func startOfDay(containing date: Date) -> Date { calendar.startOfDay(for: date) }

    private func startOfDay(daysBefore days: Int, midnight: Date) throws(RangeError) -> Date {
        // Step from noon, not midnight: midnight itself does not exist on some DST days.
        let noon = calendar.date(byAdding: .hour, value: 12, to: midnight) ?? midnight
        guard let earlier = calendar.date(byAdding: .day, value: -days, to: noon) else {
            throw .impossibleDate(option: "range", value: RFC3339.string(midnight, in: timeZone))
        }
        return calendar.startOfDay(for: earlier)
    }

    private func parseCalendarDate(_ text: String, option: String) throws(RangeError) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        guard let year = Int(text.prefix(4)), let month = Int(text.dropFirst(5).prefix(2)),
            let day = Int(text.suffix(2)),
            bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || $0.element.isASCIIDigit })
        else { throw .malformedDate(option: option, value: text) }
        var components = DateComponents(year: year, month: month, day: day, hour: 12)
        components.calendar = calendar
        guard components.isValidDate(in: calendar), let noon = calendar.date(from: components),
            calendar.component(.day, from: noon) == day
        else { throw .impossibleDate(option: option, value: text) }
        return calendar.startOfDay(for: noon)
    }
}

extension UInt8 {
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
}
