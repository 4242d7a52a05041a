import Foundation
import ReconCore

/// A request as the Stripe client hands it to a transport: a GET, or a POST with a form body.
///
/// Its description names the method, the URL and the header names only: header values (the Authorization header
/// carries the API key) and the body never reach a log line or an error message through it.
public struct HTTPRequest: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The methods the client sends.
    public enum Method: String, Sendable, Equatable {
        case get = "GET"
        /// With an `application/x-www-form-urlencoded` body (Stripe's only request body).
        case post = "POST"
    }

    /// The full URL, query included.
    public var url: URL
    /// Header fields to send, in order. The transport adds nothing that carries a secret.
    public var headers: [(name: String, value: String)]
    public var method: Method
    /// The `application/x-www-form-urlencoded` body of a POST (`nil` for a GET); its `Content-Type` is among
    /// ``headers``.
    public var body: Data?

    public init(url: URL, headers: [(name: String, value: String)], method: Method = .get, body: Data? = nil) {
        self.url = url
        self.headers = headers
        self.method = method
        self.body = body
    }

    public var description: String {
        "\(method.rawValue) \(url.absoluteString) [headers: \(headers.map(\.name).joined(separator: ", "))]"
    }

    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.url == rhs.url && lhs.method == rhs.method && lhs.body == rhs.body
            && lhs.headers.map { "\($0.name): \($0.value)" } == rhs.headers.map { "\($0.name): \($0.value)" }
    }
}

/// A complete HTTP response: status, header fields and the whole (decoded) body.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header fields with lower-cased names; the last value wins when a field repeats.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A header's value by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why a request got no complete response. Every case but ``invalidRequest(_:)`` is worth retrying.
public enum TransportError: Error, Sendable, Equatable {
    /// DNS, refused or reset connection, closed without a response.
    case connectionFailed(String)
    /// The connect or total timeout passed.
    case timedOut(String)
    /// The body ended before its announced length, or its encoding was broken.
    case truncated(String)
    /// TLS could not be established or the certificate did not verify. Never skipped.
    case tlsFailure(String)
    /// The request itself is unusable (a URL the transport refuses, such as plain http to a remote host).
    case invalidRequest(String)

    /// Whether another attempt may succeed.
    public var isRetryable: Bool {
        switch self {
        case .connectionFailed, .timedOut, .truncated: true
        case .tlsFailure, .invalidRequest: false
        }
    }

    /// The detail, for messages.
    public var detail: String {
        switch self {
        case .connectionFailed(let text), .timedOut(let text), .truncated(let text), .tlsFailure(let text),
            .invalidRequest(let text):
            text
        }
    }
}

/// Sends requests. Implementations keep connections alive, verify TLS, accept gzip, and never block Swift's
/// cooperative thread pool.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with its ``HTTPRequest/method`` (and, for a POST, its ``HTTPRequest/body``) and returns the
    /// whole response. (Named for the GET it once only sent; a wrapping transport forwards any request through it.)
    func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}
