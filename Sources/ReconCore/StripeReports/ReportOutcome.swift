import Foundation

/// What became of one Stripe report (one report type, one currency, one interval) that a run asked the Reporting
/// API for: the report, or why there is none. None of these stops a run; each is something to show.
public enum ReportOutcome<Report: Sendable>: Sendable {
    /// The report, parsed.
    case report(Report)
    /// Stripe has not published data up to the interval's end yet (the report type's `data_available_end`, Unix
    /// seconds, is before it): no run was created.
    case notYetPublished(dataAvailableEnd: Int64)
    /// The key may not run this report type (HTTP 403, or the type is unavailable to it, such as a live-only type
    /// in test mode); `reason` is what Stripe or the client said.
    case notPermitted(reason: String)
    /// The report run failed (its `status` is `failed`, with Stripe's `error`), or the report could not be fetched
    /// or read; `reason` says which.
    case failed(reason: String)
    /// The report run was still `pending` when the client stopped polling it.
    case timedOut(runID: String, waitedSeconds: Int64)
    /// The report's file is on `host`, to which the API key may not be sent: nothing was requested from it.
    case refusedHost(host: String)

    /// The report, when there is one.
    public var report: Report? {
        if case .report(let report) = self { return report }
        return nil
    }

    /// Why there is no report, in words for the run's summary; `nil` when there is one.
    public var message: String? {
        switch self {
        case .report:
            nil
        case .notYetPublished(let end):
            "Stripe has published this report's data only up to \(RFC3339.utcString(Date(timeIntervalSince1970: TimeInterval(end)))); "
                + "it was not requested. Run again after Stripe publishes the interval's data."
        case .notPermitted(let reason):
            "The API key may not run this report: \(reason) Give the key the Reporting permissions (or use a "
                + "live-mode key for live-only reports) to compare with it."
        case .failed(let reason):
            "Stripe's report could not be obtained: \(reason)"
        case .timedOut(let runID, let waited):
            "Stripe's report run \(runID) was still pending after \(waited) s of polling; the comparison was "
                + "skipped. Run again later."
        case .refusedHost(let host):
            "The report's file is on '\(host)', which is neither the configured API host nor files.stripe.com for "
                + "a live key: the API key was not sent and the file was not downloaded."
        }
    }
}

extension ReportOutcome: Equatable where Report: Equatable {}
