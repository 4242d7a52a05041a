import Foundation

/// Strict RFC 3339 timestamps (`2026-11-20T13:45:07Z`, `2026-11-20T14:45:07.250+01:00`) and the UTC form
/// the reports write.
public enum RFC3339 {
    /// `2026-11-20T13:45:07Z`: the reports' time format (UTC, whole seconds).
    public static func utcString(_ date: Date) -> String { string(date, in: utc) }

    /// `date` in `timeZone` with its offset, `Z` for UTC.
    public static func string(_ date: Date, in timeZone: TimeZone) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        return string(unixSeconds: seconds, in: timeZone)
    }

    /// Unix seconds in `timeZone` with its offset, `Z` for UTC.
    public static func string(unixSeconds: Int64, in timeZone: TimeZone) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(unixSeconds))
        let offset = timeZone.secondsFromGMT(for: date)
        let c = utcCalendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: date.addingTimeInterval(TimeInterval(offset)))
        let body = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0,
            c.minute ?? 0, c.second ?? 0)
        guard offset != 0 else { return body + "Z" }
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return body + String(format: "%@%02d:%02d", sign, minutes / 60, minutes % 60)
    }

    /// Parses an RFC 3339 timestamp; `nil` when `text` does not have its shape, an error when it has the
    /// shape but names an impossible time.
    public static func parse(_ text: String, option: String) throws(RangeError) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") || bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            let slice = bytes[start..<(start + length)]
            guard slice.allSatisfy({ $0.isASCIIDigit }) else { return nil }
            return slice.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2)
        else { return nil }

        // Optional fraction, then Z or ±hh:mm.
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, bytes[index].isASCIIDigit { index += 1 }
            guard index > start, let value = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))
            else { return nil }
            fraction = value
        }
        guard index < bytes.count else { return nil }
        let offsetSeconds: Int
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
            offsetSeconds = 0
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count == index + 6, bytes[index + 3] == UInt8(ascii: ":"),
                let hours = number(index + 1, 2), let minutes = number(index + 4, 2)
            else { return nil }
            guard hours < 24, minutes < 60 else { throw .impossibleDate(option: option, value: text) }
            let magnitude = hours * 3600 + minutes * 60
            offsetSeconds = bytes[index] == UInt8(ascii: "-") ? -magnitude : magnitude
        default:
            return nil
        }

        var components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        components.calendar = utcCalendar
        guard hour < 24, minute < 60, second < 60, components.isValidDate(in: utcCalendar),
            let utcWallClock = utcCalendar.date(from: components)
        else { throw .impossibleDate(option: option, value: text) }
        return utcWallClock.addingTimeInterval(fraction - TimeInterval(offsetSeconds))
    }

    /// `2026-11-20` for a local midnight, `2026-11-20T06-00-00` otherwise (no colons: folder-safe).
    static func folderComponent(_ date: Date, in timeZone: TimeZone) -> String {
        let local = string(date, in: timeZone)
        let day = String(local.prefix(10))
        let time = local.dropFirst(11).prefix(8)
        return time == "00:00:00" ? day : day + "T" + time.replacingOccurrences(of: ":", with: "-")
    }

    static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        return calendar
    }()
}
