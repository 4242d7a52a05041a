import Foundation
import ReconCore

/// Where the API key may be sent when a URL comes from a response (a report's file, `result.url`): only to the
/// configured API base (the same scheme, host and port), or, for a live key, to `https://files.stripe.com`.
///
/// Any other host, and a downgrade from https to http, is refused before anything is sent: a response must never be
/// able to direct the key elsewhere.
public struct DownloadHostRule: Sendable, Equatable {
    /// Stripe's host for file contents (https://docs.stripe.com/api/files).
    public static let stripeFilesHost = "files.stripe.com"

    /// The configured API base.
    public var baseURL: URL
    /// The key's mode: only a live key is sent to ``stripeFilesHost``.
    public var mode: StripeMode

    public init(baseURL: URL, mode: StripeMode) {
        self.baseURL = baseURL
        self.mode = mode
    }

    /// `nil` when the key may be sent to `url`; else the host (or the URL's text, when it has none) to name in the
    /// refusal.
    public func refusal(for url: URL) -> String? {
        guard let target = Origin(url) else { return url.host ?? String(url.absoluteString.prefix(100)) }
        if let base = Origin(baseURL), target == base { return nil }
        if mode == .live, target == Origin(scheme: "https", host: Self.stripeFilesHost, port: 443) { return nil }
        return target.host
    }

    /// A URL's scheme, host and port, lower-cased, the port filled in from the scheme.
    private struct Origin: Equatable {
        var scheme: String
        var host: String
        var port: Int

        init(scheme: String, host: String, port: Int) {
            self.scheme = scheme
            self.host = host
            self.port = port
        }

        init?(_ url: URL) {
            guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
                let host = url.host?.lowercased(), !host.isEmpty
            else { return nil }
            // Credentials in a URL are never sent along: a URL carrying them is not the configured base.
            guard url.user == nil, url.password == nil else { return nil }
            self.scheme = scheme
            self.host = host
            self.port = url.port ?? (scheme == "https" ? 443 : 80)
        }
    }
}
