import CPostgreSQL
import Foundation

/// A PostgreSQL database named by a URL, as libpq reads it (`PQconninfoParse`): user, host, port, database and
/// the other parameters (`sslmode`, `connect_timeout`, …), which pass through to libpq as they are. The password
/// (in the URL, or left to `PGPASSWORD` and `~/.pgpass`) is kept only inside the URL handed to libpq; the
/// ``description`` shows `postgresql://recon:***@127.0.0.1:5432/recon`.
public struct PostgreSQLAddress: Sendable, Equatable, CustomStringConvertible {
    /// The URL schemes libpq reads as a connection URI.
    static let schemes: Set<String> = ["postgresql", "postgres"]
    /// Parameters whose values are secrets: never shown.
    private static let secretParameters: Set<String> = ["password", "sslpassword"]
    /// Parameters the description shows in the URL's authority and path, not as `?key=value`.
    private static let placedParameters: Set<String> = ["user", "host", "hostaddr", "port", "dbname"]

    /// The URL as given: for libpq alone.
    let url: String
    public let user: String?
    /// The host (or hosts, comma-separated, as libpq allows); `nil`: libpq's default (the local socket).
    public let host: String?
    public let port: String?
    public let database: String?
    /// The other parameters set in the URL, secrets left out, by name.
    public let parameters: [String: String]
    /// Whether the URL itself carries a password.
    public let hasPassword: Bool

    /// Reads `url` as libpq does; throws, without the password, when libpq cannot.
    public init(_ url: String) throws(HistoryLocationError) {
        var errorText: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &errorText) else {
            var reason = "libpq could not read it"
            if let errorText {
                reason = String(cString: errorText).trimmingCharacters(in: .whitespacesAndNewlines)
                PQfreemem(errorText)
            }
            throw .malformedURL(shown: URLText.redacted(url), reason: URLText.scrubbed(reason, of: url))
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        self.url = url
        user = values["user"]
        host = values["host"] ?? values["hostaddr"]
        port = values["port"]
        database = values["dbname"]
        hasPassword = !(values["password"] ?? "").isEmpty
        parameters = values.filter {
            !Self.secretParameters.contains($0.key) && !Self.placedParameters.contains($0.key)
        }
    }

    /// `postgresql://recon:***@127.0.0.1:5432/recon?sslmode=require`: the URL without its password.
    public var description: String {
        var text = "postgresql://"
        if let user {
            text += user + (hasPassword ? ":***" : "") + "@"
        } else if hasPassword {
            text += ":***@"
        }
        text += host.map { $0.contains(":") && !$0.contains(",") ? "[\($0)]" : $0 } ?? ""
        if let port { text += ":" + port }
        text += "/" + (database ?? "")
        let query = parameters.keys.sorted().map { "\($0)=\(parameters[$0] ?? "")" }
        if !query.isEmpty { text += "?" + query.joined(separator: "&") }
        return text
    }
}
