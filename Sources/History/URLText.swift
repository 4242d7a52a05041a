import Foundation

/// A URL as text, before anything has read it: its scheme, and the same text without its password.
enum URLText {
    /// The scheme of `text` when it starts like a URL (`letters://`), else `nil` (a file path).
    static func scheme(of text: String) -> String? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        else { return nil }
        return String(scheme)
    }

    /// `text` with the password of its authority (`user:password@`) as `***`; text that has none is unchanged.
    static func redacted(_ text: String) -> String {
        guard let (_, password) = userInfo(of: text), let password else { return text }
        return text.replacingCharacters(in: password, with: "***")
    }

    /// `message` (libpq's, about `url`) with `url` shown redacted and its password, as written or decoded, as `***`.
    static func scrubbed(_ message: String, of url: String) -> String {
        var scrubbed = message.replacingOccurrences(of: url, with: redacted(url))
        if let (_, range) = userInfo(of: url), let range {
            let password = String(url[range])
            for secret in Set([password, password.removingPercentEncoding ?? password]) where !secret.isEmpty {
                scrubbed = scrubbed.replacingOccurrences(of: secret, with: "***")
            }
        }
        return scrubbed
    }

    /// The user information of `text`'s authority (between `://` and the last `@` before the path), and the range of
    /// its password (after the first `:`), if any.
    private static func userInfo(of text: String) -> (Range<String.Index>, Range<String.Index>?)? {
        guard let separator = text.range(of: "://") else { return nil }
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return nil }
        let info = rest.startIndex..<at
        guard let colon = rest[info].firstIndex(of: ":") else { return (info, nil) }
        return (info, rest.index(after: colon)..<at)
    }
}
