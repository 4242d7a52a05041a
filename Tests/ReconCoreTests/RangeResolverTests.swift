import Foundation
import Testing

@testable import ReconCore

@Suite("Range resolution")
struct RangeResolverTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    /// 2026-11-21T01:30:00Z
    static let now = Date(timeIntervalSince1970: 1_795_132_800 + 86_400 + 5_400)

    func resolver(_ zone: TimeZone = utc, now: Date = now, maximumDays: Int = 366) -> RangeResolver {
        RangeResolver(timeZone: zone, maximumDays: maximumDays, now: now)
    }

    @Test("a YYYY-MM-DD date is midnight in the configured time zone")
    func calendarDate() throws {
        #expect(try resolver().parse("2026-11-20", option: "--from").timeIntervalSince1970 == 1_795_132_800)
        #expect(
            try resolver(.init(identifier: "Europe/Berlin")!).parse("2026-10-25", option: "--from")
                .timeIntervalSince1970 == 1_792_879_200)
    }

    @Test("an RFC 3339 timestamp is that instant, whatever its offset")
    func timestamps() throws {
        let r = resolver()
        #expect(try r.parse("2026-11-20T13:45:07Z", option: "--from").timeIntervalSince1970 == 1_795_182_307)
        #expect(try r.parse("2026-11-20T14:45:07+01:00", option: "--from").timeIntervalSince1970 == 1_795_182_307)
        #expect(try r.parse("2026-11-20T08:45:07-05:00", option: "--from").timeIntervalSince1970 == 1_795_182_307)
        #expect(try r.parse("2026-11-20T13:45:07.5Z", option: "--from").timeIntervalSince1970 == 1_795_182_307.5)
    }

    @Test("without --from and --to the range is the previous whole day")
    func previousDay() throws {
        let range = try resolver().resolve(from: nil, to: nil)
        #expect(range.from.timeIntervalSince1970 == 1_795_132_800)
        #expect(range.to.timeIntervalSince1970 == 1_795_132_800 + 86_400)
        #expect(range.folderName == "2026-11-20_2026-11-21")
    }

    @Test("the previous day is 25 hours long when the clocks went back")
    func previousDayAcrossFallBack() throws {
        // Given 2026-11-02 12:00 in New York, the day after DST ended
        let now = Date(timeIntervalSince1970: 1_793_595_600 + 12 * 3_600)
        // When the nightly run resolves its range
        let range = try resolver(Self.newYork, now: now).resolve(from: nil, to: nil)
        // Then it is the whole of 1 November, 25 hours
        #expect(range.from.timeIntervalSince1970 == 1_793_505_600)
        #expect(range.to.timeIntervalSince1970 == 1_793_595_600)
        #expect(range.to.timeIntervalSince(range.from) == 25 * 3_600)
        #expect(range.folderName == "2026-11-01_2026-11-02")
    }

    @Test("a day is 23 hours long when the clocks went forward")
    func springForward() throws {
        let range = try resolver(Self.newYork).resolve(from: "2026-03-08", to: "2026-03-09")
        #expect(range.from.timeIntervalSince1970 == 1_772_946_000)
        #expect(range.to.timeIntervalSince(range.from) == 23 * 3_600)
    }

    @Test("--from alone runs to today's midnight; --to alone is the day before it")
    func oneBoundGiven() throws {
        let fromOnly = try resolver().resolve(from: "2026-11-18", to: nil)
        #expect(fromOnly.from.timeIntervalSince1970 == 1_795_132_800 - 2 * 86_400)
        #expect(fromOnly.to.timeIntervalSince1970 == 1_795_132_800 + 86_400)
        let toOnly = try resolver().resolve(from: nil, to: "2026-11-20")
        #expect(toOnly.from.timeIntervalSince1970 == 1_795_132_800 - 86_400)
        #expect(toOnly.to.timeIntervalSince1970 == 1_795_132_800)
    }

    @Test(
        "malformed dates are refused with the option's name",
        arguments: ["20-11-2026", "2026/11/20", "yesterday", "2026-11-2", "2026-1a-20", "2026-11-20T13:45:07", ""])
    func malformed(text: String) {
        #expect(throws: RangeError.malformedDate(option: "--from", value: text)) {
            try resolver().parse(text, option: "--from")
        }
    }

    @Test(
        "impossible dates are refused",
        arguments: [
            "2026-02-30", "2025-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-11-20T24:00:00Z",
            "2026-11-20T23:60:00Z", "2026-11-20T10:00:61Z", "2026-11-20T10:00:00+25:00",
        ])
    func impossible(text: String) {
        #expect(throws: RangeError.impossibleDate(option: "--to", value: text)) {
            try resolver().parse(text, option: "--to")
        }
    }

    @Test("a leap day exists in a leap year")
    func leapDay() throws {
        #expect(try resolver().parse("2024-02-29", option: "--from").timeIntervalSince1970 == 1_709_164_800)
    }

    @Test("from must be before to", arguments: [("2026-11-20", "2026-11-19"), ("2026-11-20", "2026-11-20")])
    func emptyRange(from: String, to: String) {
        #expect(throws: RangeError.self) { try resolver().resolve(from: from, to: to) }
        do {
            _ = try resolver().resolve(from: from, to: to)
        } catch {
            #expect(error.message.contains("must be before --to"))
            #expect(error.isBadInput)
        }
    }

    @Test("a range longer than the maximum is refused; exactly the maximum is allowed")
    func maximumLength() throws {
        let leapYear = try resolver().resolve(from: "2024-01-01", to: "2025-01-01")  // 366 days
        #expect(leapYear.to.timeIntervalSince(leapYear.from) == 366 * 86_400)
        #expect(throws: RangeError.tooLong(days: 367, maximum: 366)) {
            try resolver().resolve(from: "2024-01-01", to: "2025-01-02")
        }
        #expect(throws: RangeError.tooLong(days: 8, maximum: 7)) {
            try resolver(maximumDays: 7).resolve(from: "2026-11-01", to: "2026-11-09")
        }
    }

    @Test("a range that starts in the future is refused")
    func future() {
        #expect(throws: RangeError.self) { try resolver().resolve(from: "2026-12-01", to: "2026-12-02") }
    }

    @Test("time zones are IANA names", arguments: ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"])
    func knownZones(name: String) throws {
        _ = try RangeResolver.timeZone(named: name)
    }

    @Test("unknown time zones are refused", arguments: ["Mars/Olympus", "", "Europe/Berlinn", "utc+1"])
    func unknownZones(name: String) {
        #expect(throws: RangeError.unknownTimeZone(name)) { try RangeResolver.timeZone(named: name) }
    }

    @Test("a bound that is not a local midnight keeps its time in the folder name")
    func folderNameWithTimes() throws {
        let range = try resolver().resolve(from: "2026-11-20T06:00:00Z", to: "2026-11-20T18:30:00Z")
        #expect(range.folderName == "2026-11-20T06-00-00_2026-11-20T18-30-00")
        #expect(range.unixSeconds.from == 1_795_132_800 + 6 * 3_600)
    }

    @Test("RFC 3339 rendering uses Z for UTC and the offset elsewhere")
    func rendering() {
        #expect(RFC3339.utcString(Date(timeIntervalSince1970: 1_795_182_307)) == "2026-11-20T13:45:07Z")
        #expect(RFC3339.string(unixSeconds: 1_793_505_600, in: Self.newYork) == "2026-11-01T00:00:00-04:00")
        #expect(RFC3339.string(unixSeconds: 1_793_595_600, in: Self.newYork) == "2026-11-02T00:00:00-05:00")
    }
}
