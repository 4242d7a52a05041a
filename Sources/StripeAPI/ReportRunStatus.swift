import ReconCore

/// A report run's `status` (https://docs.stripe.com/api/reporting/report_run/object#reporting_report_run_object-status).
/// Open.
public struct ReportRunStatus: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// Stripe is still computing the report.
    public static let pending = ReportRunStatus(rawValue: "pending")
    /// The report's file is ready (`result`).
    public static let succeeded = ReportRunStatus(rawValue: "succeeded")
    /// The run failed; its `error` says why.
    public static let failed = ReportRunStatus(rawValue: "failed")

    /// The three documented values.
    public static let knownValues: [ReportRunStatus] = [pending, succeeded, failed]
}
