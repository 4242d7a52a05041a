import Foundation
import History
import ReconCore

/// What a range run needs besides its range: where the history is, what it reports about itself, and the rules'
/// settings. The command line builds it from its configuration; the pipeline never reads files or the environment.
public struct RunSettings: Sendable {
    /// Where the history lives.
    public var history: HistoryLocation
    /// How long to wait for another run holding the history.
    public var lockWait: Duration
    /// This tool's version, recorded with every run and printed on the Run sheet.
    public var toolVersion: String
    /// The `Stripe-Version` the objects were fetched with.
    public var stripeVersion: String
    /// Stripe's API or a Stripe-compatible server.
    public var apiBaseURL: URL
    /// The folder the range's report folder is written in.
    public var outputDirectory: URL
    /// Seconds after which an unpaid destination charge counts as a skipped transfer.
    public var skippedTransferGrace: Int64
    /// The look-back window before the range (docs/EXTRACTION.md, "Late outcomes"), in seconds: what is not final in it
    /// is read again by every run that reads Stripe and judged when it changed; 0 turns it off.
    public var lookbackSeconds: Int64
    /// Whether the run compares its balance with Stripe's own Balance report (`reconcile.compare_with_stripe_reports`).
    public var compareWithStripeReports = true
    /// How long a run waits for one Stripe report run to finish (`reconcile.stripe_report_wait_seconds`).
    public var stripeReportWait: Duration = .seconds(600)
    /// The metadata keys whose values name what an account debit recovers (`reconcile.debit_link_keys`).
    public var debitLinkKeys = ChargeFacts.defaultDebitLinkKeys
    /// Lines for the Run sheet's parameters block (time zone, configuration file, …), in order.
    public var reportParameters: [(name: String, value: String)]

    public init(
        history: HistoryLocation, lockWait: Duration, toolVersion: String, stripeVersion: String, apiBaseURL: URL,
        outputDirectory: URL, skippedTransferGrace: Int64, lookbackSeconds: Int64 = 0,
        reportParameters: [(name: String, value: String)] = []
    ) {
        self.history = history
        self.lockWait = lockWait
        self.toolVersion = toolVersion
        self.stripeVersion = stripeVersion
        self.apiBaseURL = apiBaseURL
        self.outputDirectory = outputDirectory
        self.skippedTransferGrace = skippedTransferGrace
        self.lookbackSeconds = lookbackSeconds
        self.reportParameters = reportParameters
    }
}

/// How extraction talks to Stripe: timeouts, concurrency, rate limits and retries.
public struct ExtractionSettings: Sendable {
    public var connectTimeout: Duration
    public var requestTimeout: Duration
    /// Requests in flight at most.
    public var concurrency: Int
    /// Requests per second over all endpoints.
    public var globalRate: Double
    /// Requests per second for any one endpoint.
    public var endpointRate: Double
    /// Retries of a failed request before the run fails.
    public var maxRetries: Int
    /// Seconds before now that are not yet settled: windows ending later are fetched again next time.
    public var settleMargin: Int64

    public init(
        connectTimeout: Duration, requestTimeout: Duration, concurrency: Int, globalRate: Double,
        endpointRate: Double, maxRetries: Int, settleMargin: Int64
    ) {
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.concurrency = concurrency
        self.globalRate = globalRate
        self.endpointRate = endpointRate
        self.maxRetries = maxRetries
        self.settleMargin = settleMargin
    }
}
