import Foundation
import History
import ReconCore

/// Every setting of a run, resolved from flag > environment > file > default and checked.
///
/// Built only by ``ConfigurationLoader``; holds no secret (the API key is resolved separately, see
/// ``CredentialResolver``).
public struct Configuration: Sendable, Equatable {
    /// Stripe's API or a Stripe-compatible server, without a trailing slash.
    public var apiBaseURL: URL
    public var stripeVersion: String
    /// A file holding the key, used when `STRIPE_API_KEY` is not set.
    public var keyFile: String?
    /// Global requests per second, or `nil` for Stripe's limit of the key's mode (25 test, 100 live).
    public var rateLimit: Double?
    public var endpointRateLimit: Double
    public var concurrency: Int
    public var requestTimeout: TimeInterval
    public var connectTimeout: TimeInterval
    public var maxRetries: Int
    public var timeZone: TimeZone
    /// The time zone's name as configured (`UTC`, `Europe/Berlin`).
    public var timeZoneName: String
    public var maxRangeDays: Int
    public var settleMargin: TimeInterval
    public var skippedTransferGrace: TimeInterval
    /// `reconcile.lookback_days`: days before the range whose objects that are not final are read again (0: off).
    public var lookbackDays: Int
    /// `reconcile.compare_with_stripe_reports`: whether runs compare the roll-forward with Stripe's Balance report.
    public var compareWithStripeReports: Bool = true
    /// `reconcile.debit_link_keys`: the metadata keys whose values name what an account debit recovers.
    public var debitLinkKeys: [String] = ChargeFacts.defaultDebitLinkKeys
    /// `reconcile.stripe_report_wait_seconds`: how long a run waits for a Stripe report run to finish.
    public var stripeReportWait: TimeInterval = 600
    public var outputDirectory: String
    /// Where the history lives (`output.database`, `--db`): a SQLite file or a PostgreSQL URL.
    public var history: HistoryLocation
    /// How long to wait for another run holding the database.
    public var lockWait: TimeInterval
    public var logLevel: String
    /// The configuration file that was read, if any (for the run's log and the workbook's Run sheet).
    public var filePath: String?

    /// Global requests per second for a key of `mode`: the configured figure, else Stripe's limit.
    public func effectiveRateLimit(liveMode: Bool) -> Double { rateLimit ?? (liveMode ? 100 : 25) }
}

/// Checks a base URL: http or https, a host, nothing that could carry a secret, plain http only to loopback.
enum APIBaseValidator {
    /// Why a base URL was refused, completing the sentence "'api.base_url' …".
    struct Refusal: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    static func validate(_ text: String) -> Result<URL, Refusal> {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            return .failure(Refusal("is not a URL like https://api.stripe.com or http://127.0.0.1:12111."))
        }
        guard scheme == "https" || scheme == "http" else {
            return .failure(
                Refusal("must start with https:// (or http:// for a server on this machine), not \(scheme)://."))
        }
        guard components.user == nil, components.password == nil else {
            return .failure(
                Refusal("must not contain a user name or password: the key comes from STRIPE_API_KEY or a key file."))
        }
        guard components.query == nil, components.fragment == nil else {
            return .failure(Refusal("must not contain a query (?…) or fragment (#…)."))
        }
        if scheme == "http" && !isLoopback(host) {
            return .failure(
                Refusal(
                    "uses plain http to '\(host)', which would send the API key unencrypted. "
                        + "Use https://, or http:// only to this machine (127.0.0.1, localhost, ::1)."))
        }
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed) else { return .failure(Refusal("is not a valid URL.")) }
        return .success(url)
    }

    /// `127.0.0.0/8`, `localhost` and `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { return false }
        return octets[0] == "127"
    }
}
