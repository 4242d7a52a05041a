import Foundation
import ReconCore

/// How to build the sandbox's world and which faults to inject.
public struct SandboxOptions: Sendable {
    /// Seed of the world: the same seed and options give byte-identical responses.
    public var seed: UInt64 = 42
    /// Number of platform charges in the world.
    public var charges: Int = 2_000
    /// First day of the world (UTC midnight).
    public var start: Date = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01T00:00:00Z
    /// The world spans `[start, start + days + hours)`.
    public var days: Int = 30
    /// Hours beyond ``days`` (0…23), so that the world's end, its "now", can fall in the middle of a day.
    public var hours: Int = 0
    /// Serve the world as of this moment instead of its end (`start < asOf <= end`): the same world, as Stripe would
    /// have served it then (``SandboxWorld/init(seed:charges:start:end:asOf:transferGroupShare:movesByHand:otherMoney:)``); `nil` for its end.
    public var asOf: Date?
    /// Share (0…1) of the random charges that are separately transferred (transfer groups); 0 keeps the world as it
    /// always was (see ``SandboxWorld/init(seed:charges:start:end:asOf:transferGroupShare:movesByHand:otherMoney:)``).
    public var transferGroupShare: Double = 0
    /// The late outcomes also hold money moved by hand (``SandboxWorld/init(seed:charges:start:end:asOf:transferGroupShare:movesByHand:otherMoney:)``).
    public var movesByHand = false
    /// The world also holds the platform's other money (``SandboxWorld/init(seed:charges:start:end:asOf:transferGroupShare:movesByHand:otherMoney:)``).
    public var otherMoney = false
    /// Address to listen on: loopback only (`127.0.0.1`, `::1` or `localhost`).
    public var host: String = "127.0.0.1"
    /// Port to listen on; 0 picks a free one.
    public var port: Int = 0
    /// Delay added to every response.
    public var latency: Duration = .zero
    /// Delay added to a response for every object it holds because the request expanded it (an expanded
    /// reference, an item of an expanded list), as Stripe warns that deep expansions on lists are slower.
    public var expansionLatency: Duration = .zero
    /// Share (0…1) of requests answered 500 with `Stripe-Should-Retry: true`.
    public var failRate: Double = 0
    /// Global requests per second (sliding one-second window) before 429s; `nil` for no limit.
    public var rateLimit: Double?
    /// Requests per second per endpoint (list or retrieve of one resource) before 429s; `nil` for no limit.
    public var endpointRateLimit: Double?
    /// Share (0…1) of requests whose connection is closed without a response.
    public var dropRate: Double = 0
    /// Share (0…1) of responses whose body is cut short (the full `Content-Length` is still announced).
    public var truncateRate: Double = 0
    /// Share (0…1) of responses delayed by ``slowLatency`` on top of ``latency``: latency spikes, for example
    /// past the client's request timeout.
    public var slowRate: Double = 0
    /// The extra delay of a slow response (see ``slowRate``).
    public var slowLatency: Duration = .seconds(2)

    /// Resources (`application_fees`, `disputes`, …) that restricted keys (`rk_test_…`) may not read: they get
    /// Stripe's 403, to try a key that lacks a permission.
    public var restrictedKeyForbiddenResources: Set<String> = []
    /// Balance transactions (`txn_…`) that `GET /v1/balance_transactions` never lists, although they count in
    /// `GET /v1/balance`: a history that misses them must fail its continuity proof (docs/RULES.md).
    public var hiddenBalanceTransactions: Set<String> = []

    /// Report runs (`POST /v1/reporting/report_runs`) end `failed` instead of `succeeded`, to try a failed report.
    public var reportRunsFail = false
    /// Report runs stay `pending` forever, to try a client's polling bound.
    public var reportRunsNeverFinish = false
    /// Minor units added to lines of the report files, keyed `<report type>/<currency>/<line>`
    /// (`balance.summary.1/usd/ending_balance`, `balance_change_from_activity.summary.1/usd/charge`): a report that
    /// disagrees with the world, to try the comparison.
    public var reportLineOffsets: [String: Int64] = [:]

    public init() {}

    /// The world's end: ``start`` plus ``days`` and ``hours``.
    public var end: Date { start.addingTimeInterval(Double(days * 86_400 + hours * 3_600)) }

    /// Checks that ``asOf``, if set, is inside the world: after its start, at or before its end.
    public func checkAsOf() throws(SandboxError) {
        guard let asOf, !(asOf > start && asOf <= end) else { return }
        throw SandboxError(
            message: "The moment to serve the world as of (\(RFC3339.utcString(asOf))) must be inside the world: "
                + "after its start (\(RFC3339.utcString(start))) and at or before its end (\(RFC3339.utcString(end))).",
            isBadInput: true)
    }
}

/// Why the sandbox could not start.
public struct SandboxError: ActionableError {
    public var message: String
    public var isBadInput: Bool

    public init(message: String, isBadInput: Bool) {
        self.message = message
        self.isBadInput = isBadInput
    }
}

/// What the server has answered so far, for tests and benchmarks.
public struct SandboxRequestStats: Sendable, Equatable {
    /// Requests received, including dropped and rejected ones.
    public var total = 0
    /// Requests per endpoint, such as `GET /v1/charges` or `GET /v1/transfers/:id/reversals`.
    public var byEndpoint: [String: Int] = [:]
    /// Responses per HTTP status.
    public var byStatus: [Int: Int] = [:]
    /// 429 answers (global and per-endpoint).
    public var rateLimited = 0
    /// Injected 500 answers.
    public var injectedFailures = 0
    /// Connections closed without an answer.
    public var dropped = 0
    /// Answers whose body was cut short.
    public var truncated = 0
    /// Answers delayed by the slow rate's extra latency.
    public var slowed = 0
    /// Objects sent expanded inside answers (see ``SandboxOptions/expansionLatency``).
    public var expandedObjects = 0

    public init() {}
}
