import Foundation

/// The half-open time range `[from, to)` a run reconciles: objects created at or after `from` and before `to`.
public struct ReportingRange: Hashable, Sendable, CustomStringConvertible {
    /// Inclusive start.
    public let from: Date
    /// Exclusive end.
    public let to: Date
    /// The time zone the range's dates were given in; it names the report folder's dates.
    public let timeZone: TimeZone

    /// Creates a range; `from` must be before `to` (``RangeError/emptyRange(from:to:)`` otherwise).
    public init(from: Date, to: Date, timeZone: TimeZone) throws(RangeError) {
        guard from < to else {
            throw .emptyRange(from: RFC3339.string(from, in: timeZone), to: RFC3339.string(to, in: timeZone))
        }
        self.from = from
        self.to = to
        self.timeZone = timeZone
    }

    /// `from` and `to` as Unix seconds, Stripe's `created[gte]` and `created[lt]`.
    public var unixSeconds: (from: Int64, to: Int64) {
        (Int64(from.timeIntervalSince1970.rounded(.up)), Int64(to.timeIntervalSince1970.rounded(.up)))
    }

    /// `2026-11-20_2026-11-21`: the dates of `from` and `to` in the range's time zone, for folder names.
    /// A bound that is not a local midnight keeps its time (`2026-11-20T06-00-00_…`) so two ranges never share
    /// a folder.
    public var folderName: String {
        "\(RFC3339.folderComponent(from, in: timeZone))_\(RFC3339.folderComponent(to, in: timeZone))"
    }

    public var description: String {
        "[\(RFC3339.string(from, in: timeZone)), \(RFC3339.string(to, in: timeZone)))"
    }
}

/// Why a date or a range was refused.
public enum RangeError: ActionableError, Equatable {
    case malformedDate(option: String, value: String)
    case impossibleDate(option: String, value: String)
    case unknownTimeZone(String)
    case emptyRange(from: String, to: String)
    case tooLong(days: Int, maximum: Int)
    case startsInFuture(from: String)

    public var message: String {
        switch self {
        case .malformedDate(let option, let value):
            "\(option) '\(value.prefix(40))' is not a date. Write YYYY-MM-DD (midnight in the configured time zone), "
                + "for example 2026-11-20, or an RFC 3339 timestamp such as 2026-11-20T13:45:07Z."
        case .impossibleDate(let option, let value):
            "\(option) '\(value.prefix(40))' is not a real calendar date or time (check the month, day and hour)."
        case .unknownTimeZone(let name):
            "Unknown time zone '\(name.prefix(60))'. Use an IANA name such as UTC, Europe/Berlin or America/New_York "
                + "(set range.time_zone in the config, or CONNECT_RECON_TIME_ZONE)."
        case .emptyRange(let from, let to):
            "The range is empty: --from (\(from)) must be before --to (\(to)); --from is inclusive, --to exclusive."
        case .tooLong(let days, let maximum):
            "The range spans \(days) days, more than the configured maximum of \(maximum). Split it into shorter "
                + "runs, or raise range.max_days in the config."
        case .startsInFuture(let from):
            "The range starts in the future (\(from)): there is nothing to reconcile yet. Check --from."
        }
    }

    public var isBadInput: Bool { true }
}

extension ReportingRange {
    /// What to do about a report of this range that an outcome put out of date: `re-run 2026-11-18 to update its
    /// report` for one whole day, `re-run --from 2026-11-01 --to 2026-12-01 to update its report` otherwise.
    public var rerunAdvice: String {
        let fromText = RFC3339.folderComponent(from, in: timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        if calendar.startOfDay(for: from) == from, calendar.date(byAdding: .day, value: 1, to: from) == to {
            return "re-run \(fromText) to update its report"
        }
        let start = calendar.startOfDay(for: from) == from ? fromText : RFC3339.string(from, in: timeZone)
        let end =
            calendar.startOfDay(for: to) == to
            ? RFC3339.folderComponent(to, in: timeZone) : RFC3339.string(to, in: timeZone)
        return "re-run --from \(start) --to \(end) to update its report"
    }
}
