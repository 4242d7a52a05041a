import Foundation
import ReconCore

/// One configuration setting: its key in the file, its environment variables, its type and default.
///
/// The table ``SettingDefinition/all`` is the single source of truth: the file parser rejects any key not in
/// it, the environment layer reads the variables it names, and `connect-recon run --help` and the README
/// describe it.
struct SettingDefinition: Sendable {
    /// The value's type, which decides how file, environment and flag text is checked.
    enum Kind: Sendable, Equatable {
        /// Free text (a URL, a path, a name).
        case text
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// A number (may have decimals) within the range.
        case number(ClosedRange<Double>)
        /// A number within the range, or the word `auto`.
        case numberOrAuto(ClosedRange<Double>)
        /// One of the listed words.
        case choice([String])
        /// Yes or no: `true`/`false` in the file, or `true`, `false`, `yes`, `no`, `on`, `off`, `1`, `0` as text.
        case flag

        var expectation: String {
            switch self {
            case .text: "text"
            case .integer(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
            case .number(let range): "a number from \(range.lowerBound.plain) to \(range.upperBound.plain)"
            case .numberOrAuto(let range):
                "a number from \(range.lowerBound.plain) to \(range.upperBound.plain), or auto"
            case .choice(let words): "one of " + words.joined(separator: ", ")
            case .flag: "true or false"
            }
        }
    }

    /// `section.key`, as written in the file.
    let path: String
    let kind: Kind
    /// The default, as text in the same form a file or variable would give it.
    let defaultValue: String?
    /// Environment variables that set it, the first one set wins. Always includes `CONNECT_RECON_<SECTION>_<KEY>`.
    let environment: [String]
    /// One line for the documentation.
    let summary: String

    init(_ path: String, _ kind: Kind, default defaultValue: String?, aliases: [String] = [], _ summary: String) {
        self.path = path
        self.kind = kind
        self.defaultValue = defaultValue
        self.environment = aliases + ["CONNECT_RECON_" + path.replacingOccurrences(of: ".", with: "_").uppercased()]
        self.summary = summary
    }
}

extension SettingDefinition {
    static let apiBaseURL = SettingDefinition(
        "api.base_url", .text, default: "https://api.stripe.com", aliases: ["STRIPE_API_BASE"],
        "Stripe's API, or a Stripe-compatible server such as the sandbox (plain http only to loopback).")
    static let stripeVersion = SettingDefinition(
        "api.stripe_version", .text, default: "2026-07-29.dahlia",
        "The Stripe-Version header sent with every request (the API version the models were written for).")
    static let keyFile = SettingDefinition(
        "api.key_file", .text, default: nil,
        "A file holding the secret or restricted key, used when STRIPE_API_KEY is not set (mode 0600).")
    static let rateLimit = SettingDefinition(
        "api.rate_limit", .numberOrAuto(0.1...10_000), default: "auto",
        "Requests per second across all endpoints; auto = 25 for test keys, 100 for live keys (Stripe's limits).")
    static let endpointRateLimit = SettingDefinition(
        "api.endpoint_rate_limit", .number(0.1...10_000), default: "25",
        "Requests per second to any one endpoint (Stripe's default per-endpoint limit is 25).")
    static let concurrency = SettingDefinition(
        "api.concurrency", .integer(1...256), default: "32",
        "Requests in flight at once: 100 requests/s at Stripe's 100–300 ms per answer needs about 30.")
    static let requestTimeout = SettingDefinition(
        "api.request_timeout_seconds", .number(1...600), default: "30",
        "Give up on one request after this long (then it is retried).")
    static let connectTimeout = SettingDefinition(
        "api.connect_timeout_seconds", .number(1...120), default: "10", "Give up connecting after this long.")
    static let maxRetries = SettingDefinition(
        "api.max_retries", .integer(0...20), default: "6",
        "Retries of one request after a network error, 409, 429 or 5xx, with exponential backoff and jitter.")
    static let timeZone = SettingDefinition(
        "range.time_zone", .text, default: "UTC",
        "IANA time zone of YYYY-MM-DD dates and of the nightly 'previous day'.")
    static let maxDays = SettingDefinition(
        "range.max_days", .integer(1...3660), default: "366", "Longest range one run accepts, in days.")
    static let settleMargin = SettingDefinition(
        "range.settle_margin_seconds", .integer(0...86_400), default: "300",
        "A range may not end later than this long before now: Stripe makes new objects visible with a delay.")
    static let skippedTransferGrace = SettingDefinition(
        "reconcile.skipped_transfer_grace_seconds", .integer(0...2_592_000), default: "3600",
        "A charge younger than this is not yet called a skipped transfer (Stripe's asynchronous capture).")
    static let lookbackDays = SettingDefinition(
        "reconcile.lookback_days", .integer(0...366), default: String(LateOutcomePolicy.defaultLookbackDays),
        "Days before the range whose pending charges, refunds, open disputes and payouts each run reads again, "
            + "reporting the outcomes that arrived since (0 turns it off).")
    static let compareWithStripeReports = SettingDefinition(
        "reconcile.compare_with_stripe_reports", .flag, default: "true",
        "Whether each run compares its balance roll-forward with Stripe's own Balance report (Reporting API; a key "
            + "that may not run reports is reported, never a failure).")
    static let stripeReportWait = SettingDefinition(
        "reconcile.stripe_report_wait_seconds", .integer(1...3_600), default: "600",
        "How long a run waits for Stripe to finish a report run before it reports the comparison as not made.")
    static let debitLinkKeys = SettingDefinition(
        "reconcile.debit_link_keys", .text, default: ChargeFacts.defaultDebitLinkKeys.joined(separator: ", "),
        "The metadata keys (comma-separated) whose values name the charge, PaymentIntent, refund or dispute an account "
            + "debit recovers (its transfer_group is read too).")
    static let outputDirectory = SettingDefinition(
        "output.reports_dir", .text, default: "Reports", "Folder that receives one report folder per range.")
    static let databasePath = SettingDefinition(
        "output.database", .text, default: "connect-recon.sqlite",
        "The SQLite history of every object and run (created mode 0600).")
    static let lockWait = SettingDefinition(
        "output.lock_wait_seconds", .integer(0...3_600), default: "10",
        "How long a run waits for another run using the same database before giving up (exit 1).")
    static let logLevel = SettingDefinition(
        "log.level", .choice(["trace", "debug", "info", "notice", "warning", "error"]), default: "info",
        "How much the tool logs to standard error.")

    /// Every setting, in the order the documentation lists them.
    static let all: [SettingDefinition] = [
        apiBaseURL, stripeVersion, keyFile, rateLimit, endpointRateLimit, concurrency, requestTimeout,
        connectTimeout, maxRetries, timeZone, maxDays, settleMargin, skippedTransferGrace, lookbackDays,
        compareWithStripeReports, stripeReportWait, debitLinkKeys,
        outputDirectory,
        databasePath, lockWait, logLevel,
    ]

    static let byPath: [String: SettingDefinition] = Dictionary(uniqueKeysWithValues: all.map { ($0.path, $0) })
}

extension Double {
    /// `25` rather than `25.0`, for messages.
    var plain: String { self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}
