import Foundation
import ReconCore

/// A GET request as the Stripe client hands it to a transport.
///
/// Its description names the URL and the header names only: header values (the Authorization header
/// carries the API key) never reach a log line or an error message through it.
public struct HTTPRequest: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The full URL, query included.
    public var url: URL
    /// Header fields to send, in order. The transport adds nothing that carries a secret.
    public var headers: [(name: String, value: String)]

    public init(url: URL, headers: [(name: String, value: String)]) {
        self.url = url
        self.headers = headers
    }

    public var description: String {
        "GET \(url.absoluteString) [headers: \(headers.map(\.name).joined(separator: ", "))]"
    }

    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.url == rhs.url
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

/// Sends GET requests. Implementations keep connections alive, verify TLS, accept gzip, and never block
/// Swift's cooperative thread pool.
public protocol HTTPTransport: Sendable {
    func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}
