import Foundation
import ReconCore

/// Why a request to Stripe failed for good (after any retries). Messages name the endpoint and Stripe's
/// `Request-Id`, say what to fix, and never contain the API key.
public enum StripeClientError: ActionableError, Equatable {
    /// Stripe answered with an error status that retrying cannot fix, or that kept failing until the retry
    /// budget ran out.
    case http(
        status: Int, endpoint: String, requestID: String?, error: StripeErrorSummary?, attempts: Int,
        method: HTTPRequest.Method = .get)
    /// No complete response after every attempt.
    case transport(TransportError, endpoint: String, attempts: Int, method: HTTPRequest.Method = .get)
    /// The response was not the JSON Stripe sends: HTML, truncated or invalid JSON, missing fields.
    case malformedResponse(endpoint: String, requestID: String?, detail: String, method: HTTPRequest.Method = .get)
    /// A list broke Stripe's paging contract (a cursor that does not advance, `has_more` with no data).
    case brokenPagination(endpoint: String, requestID: String?, detail: String)
    /// A download's URL (from a response) is on a host the API key may not be sent to: nothing was requested.
    /// The key goes only to the configured API base (same scheme, host and port) or, for a live key, to
    /// `https://files.stripe.com`.
    case keyWithheld(host: String, endpoint: String)

    public var message: String {
        switch self {
        case .http(let status, let endpoint, let requestID, let error, let attempts, let method):
            let said = error.map { " Stripe said: \($0.description)." } ?? ""
            let id = requestID.map { " (Request-Id \($0))" } ?? ""
            let tries = attempts > 1 ? " after \(attempts) attempts" : ""
            return
                "\(method.rawValue) \(endpoint) failed with HTTP \(status)\(tries)\(id).\(said) \(Self.advice(status, endpoint, method))"
        case .transport(let error, let endpoint, let attempts, let method):
            return
                "\(method.rawValue) \(endpoint) got no complete response after \(attempts) attempt\(attempts == 1 ? "" : "s"): "
                + "\(error.detail). Check the network and api.base_url; the run can be repeated safely."
        case .malformedResponse(let endpoint, let requestID, let detail, let method):
            return "\(method.rawValue) \(endpoint) returned something that is not Stripe's JSON"
                + (requestID.map { " (Request-Id \($0))" } ?? "")
                + ": \(detail). Check that api.base_url points at Stripe's API (not a proxy's or a web page)."
        case .brokenPagination(let endpoint, let requestID, let detail):
            return "GET \(endpoint) broke Stripe's paging contract" + (requestID.map { " (Request-Id \($0))" } ?? "")
                + ": \(detail). Stopped instead of looping or skipping objects; report this to Stripe with the "
                + "Request-Id."
        case .keyWithheld(let host, let endpoint):
            return "Refused to download \(endpoint): its host '\(host)' is neither the configured API base nor "
                + "files.stripe.com over https for a live key, so the API key was not sent and nothing was requested. "
                + "Check api.base_url, or report the URL Stripe returned."
        }
    }

    /// 401 and 403 are the key's fault: fix the configuration (exit 2). Everything else is a failed run (1).
    public var isBadInput: Bool {
        if case .http(let status, _, _, _, _, _) = self { return status == 401 || status == 403 }
        return false
    }

    /// The HTTP status, when Stripe answered.
    public var status: Int? {
        if case .http(let status, _, _, _, _, _) = self { return status }
        return nil
    }

    private static func advice(_ status: Int, _ endpoint: String, _ method: HTTPRequest.Method) -> String {
        let (access, permission) = method == .get ? ("read", "Read") : ("write", "Write")
        return switch status {
        case 401:
            "The API key was refused: it is wrong, revoked or expired. Set a valid secret or restricted key in "
                + "STRIPE_API_KEY (or the key file)."
        case 403:
            "The key lacks \(access) access to \(resourceName(endpoint)): give the restricted key \(permission) permission for it "
                + "in the Dashboard (Developers → API keys), or use a key that has it."
        case 400:
            "Stripe refused the request as invalid; check api.stripe_version and report this with the Request-Id."
        case 404:
            "The object does not exist for this key (test vs live mode, or another account)."
        case 429:
            "Stripe kept rate-limiting the requests; lower api.rate_limit / api.concurrency, or run when the "
                + "account is quieter."
        default:
            "Stripe had a problem; the run can be repeated safely. If it persists, check status.stripe.com."
        }
    }

    /// `application fees` for `/v1/application_fees/…`.
    static func resourceName(_ endpoint: String) -> String {
        let parts = endpoint.split(separator: "/").filter { $0 != "v1" }
        let name = parts.first.map(String.init) ?? endpoint
        return name.replacingOccurrences(of: "_", with: " ")
    }
}

/// The part of Stripe's error body worth repeating to a person.
public struct StripeErrorSummary: Sendable, Equatable, CustomStringConvertible {
    public var type: String
    public var code: String?
    public var message: String?
    public var param: String?

    public init(type: String, code: String?, message: String?, param: String?) {
        self.type = type
        self.code = code
        self.message = message
        self.param = param
    }

    public var description: String {
        var text = message ?? type
        if let code { text += " [\(code)]" }
        if let param { text += " (parameter \(param))" }
        return text
    }
}
