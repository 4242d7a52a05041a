import ReconCore

/// A run of a report type over an interval (https://docs.stripe.com/api/reporting/report_run/object): created
/// `pending`, then `succeeded` with its file in ``result``, or `failed` with ``error``.
public struct ReportRun: StripeObject {
    /// `"reporting.report_run"`.
    public static let objectType = "reporting.report_run"

    /// The parameters a run was created with, as Stripe echoes them.
    public struct Parameters: Equatable, Sendable, Decodable {
        /// Unix seconds, inclusive.
        public let intervalStart: Int64?
        /// Unix seconds, exclusive.
        public let intervalEnd: Int64?
        public let currency: Currency?
        public let columns: [String]?

        private enum CodingKeys: String, CodingKey {
            case intervalStart = "interval_start"
            case intervalEnd = "interval_end"
            case currency
            case columns
        }
    }

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<ReportRun>
    /// The run's id, `frr_…`.
    public let id: String
    /// When it was created, in Unix seconds.
    public let created: Int64?
    /// Why it failed, when ``status`` is `failed`.
    public let error: String?
    /// Whether it ran on live-mode data.
    public let livemode: Bool?
    public let parameters: Parameters?
    /// The report type it runs, for example `balance.summary.1`.
    public let reportType: String?
    /// The report's file, once ``status`` is `succeeded`.
    public let result: ReportFile?
    public let status: ReportRunStatus
    /// When it succeeded, in Unix seconds.
    public let succeededAt: Int64?

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case created
        case error
        case livemode
        case parameters
        case reportType = "report_type"
        case result
        case status
        case succeededAt = "succeeded_at"
    }
}
