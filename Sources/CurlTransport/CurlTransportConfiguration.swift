/// How a ``CurlHTTPTransport`` talks to the network.
///
/// There is deliberately no switch for TLS verification, redirects or protocols: certificates are always
/// verified, redirects are never followed, and only `https` (plus plain `http` to a loopback host) is used.
public struct CurlTransportConfiguration: Sendable, Equatable {
    /// The longest a TCP + TLS connect may take (`CURLOPT_CONNECTTIMEOUT_MS`).
    public var connectTimeout: Duration
    /// The longest a whole request may take, connect included (`CURLOPT_TIMEOUT_MS`).
    public var requestTimeout: Duration
    /// How many requests run at once: the number of worker threads, each owning one reused easy handle
    /// (and therefore at most one kept-alive connection). Requests beyond this wait in a queue.
    public var maxConcurrentRequests: Int
    /// The `User-Agent` sent with every request, for example `connect-recon/0.1.0`.
    public var userAgent: String

    /// The largest ``maxConcurrentRequests`` accepted: each one is an OS thread.
    public static let maximumConcurrentRequests = 256

    public init(
        connectTimeout: Duration = .seconds(10),
        requestTimeout: Duration = .seconds(80),
        maxConcurrentRequests: Int = 16,
        userAgent: String = "connect-recon"
    ) {
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.maxConcurrentRequests = maxConcurrentRequests
        self.userAgent = userAgent
    }

    /// Checks the values a transport cannot work with; the message says what to change.
    func validate() throws(TransportConfigurationError) {
        guard connectTimeout > .zero else {
            throw TransportConfigurationError("connectTimeout must be positive (curl reads 0 as 'no timeout')")
        }
        guard requestTimeout > .zero else {
            throw TransportConfigurationError("requestTimeout must be positive (curl reads 0 as 'no timeout')")
        }
        guard (1...Self.maximumConcurrentRequests).contains(maxConcurrentRequests) else {
            throw TransportConfigurationError(
                "maxConcurrentRequests must be between 1 and \(Self.maximumConcurrentRequests), "
                    + "not \(maxConcurrentRequests)")
        }
        guard !userAgent.isEmpty, HeaderRules.isValidValue(userAgent) else {
            throw TransportConfigurationError("userAgent must be non-empty and contain no CR, LF or NUL")
        }
    }
}

/// An internal carrier for configuration problems; surfaced as `TransportError.invalidRequest`.
struct TransportConfigurationError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension Duration {
    /// Whole milliseconds for curl's `_MS` options, at least 1 (curl reads 0 as "no timeout").
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        let (millisFromSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return Int(Int32.max) }
        let millis = millisFromSeconds + attoseconds / 1_000_000_000_000_000
        return Int(max(1, min(millis, Int64(Int32.max))))
    }
}
