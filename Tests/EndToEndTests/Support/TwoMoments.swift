import Foundation
import Sandbox

/// One seeded world served twice, for the runs of two nights: as of a day before its end (``earlier``) and as of its
/// end (``later``). The world ends two days before today (the binary's clock is the real one), its days in UTC.
struct TwoMoments {
    let later: SandboxServer
    let earlier: SandboxServer
    /// The world's first second.
    let start: Date
    /// UTC.
    let calendar: Calendar

    /// Starts both servers of a world of `charges` charges over `days` days, with `configure`'s options.
    static func start(
        charges: Int, days: Int, configure: (inout SandboxOptions) -> Void = { _ in }
    ) async throws -> TwoMoments {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let start = calendar.startOfDay(for: Date()).addingTimeInterval(-Double(days + 2) * 86_400)
        var options = SandboxOptions()
        options.charges = charges
        options.start = start
        options.days = days
        configure(&options)
        let later = try await SandboxServer.start(options)
        options.asOf = later.world.earlierMoment
        let earlier = try await SandboxServer.start(options)
        return TwoMoments(later: later, earlier: earlier, start: start, calendar: calendar)
    }

    func shutdown() async throws {
        try await earlier.shutdown()
        try await later.shutdown()
    }
}
