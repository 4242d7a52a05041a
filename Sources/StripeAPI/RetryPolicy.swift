import Foundation

/// When and how long to wait before retrying a request.
///
/// Retries connection errors, timeouts, truncated bodies, 409, 429 and 5xx; obeys `Stripe-Should-Retry`
/// (false: never, true: always); waits with exponential backoff and full jitter (AWS's "full jitter"), at
/// least what `Retry-After` asks.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt.
    public var maxRetries: Int
    /// The first backoff's ceiling; each retry doubles it.
    public var baseDelay: Duration
    /// No single wait is longer.
    public var maxDelay: Duration

    public init(maxRetries: Int, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(20)) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Whether a response with `status` and `shouldRetryHeader` (`Stripe-Should-Retry`) is worth another try.
    public static func isRetryable(status: Int, shouldRetryHeader: String?) -> Bool {
        switch shouldRetryHeader?.lowercased() {
        case "false": return false
        case "true": return true
        default: return status == 409 || status == 429 || status >= 500
        }
    }

    /// The wait before retry number `retry` (1-based): uniform in [0, min(max, base·2^(retry−1))], and at
    /// least `retryAfter` when the server asked for it (capped at `maxDelay`).
    public func delay(beforeRetry retry: Int, retryAfter: Duration?, random: Double) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let ceiling = min(maxDelay, baseDelay * (1 << exponent))
        let jittered = ceiling * min(max(random, 0), 1)
        guard let retryAfter else { return jittered }
        return min(max(jittered, retryAfter), maxDelay)
    }

    /// Parses `Retry-After` in seconds (Stripe sends seconds; HTTP dates are ignored).
    public static func retryAfter(_ header: String?) -> Duration? {
        guard let header, let seconds = Double(header.trimmingCharacters(in: .whitespaces)), seconds >= 0,
            seconds.isFinite
        else { return nil }
        return .milliseconds(Int64(seconds * 1_000))
    }
}
