import ReconCore

/// How a run ended.
public enum RunStatus: String, Sendable, Codable {
    case running
    case completed
    case failed
}

/// What a run is, recorded when it starts.
public struct RunStart: Sendable {
    public var command: String
    public var range: ReportingRange
    /// `test` or `live`.
    public var mode: StripeMode
    public var toolVersion: String
    public var stripeVersion: String
    public var apiBase: String
    public var startedAt: Int64
    public var pid: Int32

    public init(
        command: String, range: ReportingRange, mode: StripeMode, toolVersion: String, stripeVersion: String,
        apiBase: String, startedAt: Int64, pid: Int32
    ) {
        self.command = command
        self.range = range
        self.mode = mode
        self.toolVersion = toolVersion
        self.stripeVersion = stripeVersion
        self.apiBase = apiBase
        self.startedAt = startedAt
        self.pid = pid
    }
}

/// A run as the history remembers it.
public struct RunRecord: Sendable, Equatable, Codable {
    public var id: Int64
    public var command: String
    /// Unix seconds.
    public var rangeFrom: Int64
    public var rangeTo: Int64
    public var timeZone: String
    public var mode: StripeMode
    public var status: RunStatus
    public var startedAt: Int64
    public var finishedAt: Int64?
    public var pid: Int64
    public var toolVersion: String
    public var stripeVersion: String
    public var apiBase: String
    /// The interrupted run whose finished windows this run reused.
    public var resumedFrom: Int64?
    public var message: String?
    /// JSON with counts, requests and totals, written by the command.
    public var details: String?

    enum CodingKeys: String, CodingKey {
        case id, command
        case rangeFrom = "range_from"
        case rangeTo = "range_to"
        case timeZone = "time_zone"
        case mode, status
        case startedAt = "started_at"
        case finishedAt = "finished_at"
        case pid
        case toolVersion = "tool_version"
        case stripeVersion = "stripe_version"
        case apiBase = "api_base"
        case resumedFrom = "resumed_from"
        case message, details
    }
}
