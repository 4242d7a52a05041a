import Foundation
import ReconCore

/// A Stripe secret (`sk_…`) or restricted (`rk_…`) API key.
///
/// The key itself is reachable only through ``authorizationHeaderValue``: printing, interpolating, dumping
/// or reflecting an `APIKey` shows `sk_test_…` and never the secret, so it cannot leak into a log line,
/// an error message, a report or the database by accident.
/// See https://docs.stripe.com/keys.
public struct APIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// A secret key reads everything; a restricted key reads what its permissions allow.
    public enum Kind: String, Sendable, Equatable {
        case secret = "sk"
        case restricted = "rk"
    }

    private let secret: String
    /// Whether the key works on test-mode or live-mode data.
    public let mode: StripeMode
    public let kind: Kind

    /// Checks the key's shape. Leading and trailing white space (a key file's newline) is ignored.
    public init(_ text: String) throws(APIKeyError) {
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw .empty }
        if key.hasPrefix("pk_") { throw .publishable }
        if key.hasPrefix("whsec_") { throw .webhookSecret }
        let parts = key.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let kind = Kind(rawValue: String(parts[0])),
            let mode = StripeMode(rawValue: String(parts[1]))
        else { throw .unrecognisedShape(prefix: Self.safePrefix(of: key)) }
        let body = parts[2]
        guard body.count >= 8,
            body.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
        else { throw .unrecognisedShape(prefix: "\(kind.rawValue)_\(mode.rawValue)_") }
        self.secret = key
        self.mode = mode
        self.kind = kind
    }

    /// `Bearer <key>`: the one place the secret leaves this type, for the HTTP transport.
    public var authorizationHeaderValue: String { "Bearer " + secret }

    /// `true` when `text` contains this key (for tests that search output for leaks).
    public func occurs(in text: String) -> Bool { text.contains(secret) }

    /// `sk_test_…`: enough to tell which key without revealing it.
    public var description: String { "\(kind.rawValue)_\(mode.rawValue)_…" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["redacted": description]) }

    /// At most the first three characters, for messages about a malformed key.
    private static func safePrefix(of key: String) -> String {
        let prefix = key.prefix { $0 != "_" }
        return prefix.count <= 3 ? String(prefix) + (key.contains("_") ? "_" : "") : String(key.prefix(2)) + "…"
    }
}

/// Why a text is not a usable API key. Messages never repeat the key.
public enum APIKeyError: ActionableError, Equatable {
    case empty
    case publishable
    case webhookSecret
    case unrecognisedShape(prefix: String)

    public var message: String {
        switch self {
        case .empty:
            "The Stripe API key is empty."
        case .publishable:
            "That is a publishable key (pk_…), which cannot read charges, transfers or balances. Use a secret key "
                + "(sk_live_… / sk_test_…) or a restricted key with read access (rk_live_… / rk_test_…)."
        case .webhookSecret:
            "That is a webhook signing secret (whsec_…), not an API key. Use a secret key (sk_…) or a restricted "
                + "key (rk_…)."
        case .unrecognisedShape(let prefix):
            "The Stripe API key (starting '\(prefix)') does not look like a secret key (sk_live_… / sk_test_…) or a "
                + "restricted key (rk_live_… / rk_test_…): copy it again from the Dashboard, without quotes or spaces."
        }
    }

    public var isBadInput: Bool { true }
}
