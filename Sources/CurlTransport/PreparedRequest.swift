import CCurl
import Foundation
import StripeAPI

// MARK: Checking a request before it reaches the network

/// A request that passed the transport's own rules, in the form curl takes: the parsed URL and the header list.
///
/// Built on the caller's task (no I/O: parsing only), so a refused request fails at once without taking a
/// worker or touching the network.
struct PreparedRequest: ~Copyable {
    let url: CurlURL
    let headers: HeaderList
    /// `scheme://host[:port]/path` — no query, no credentials, no header values: safe for error messages.
    let endpoint: String
    /// `GET` or `POST`.
    let method: HTTPRequest.Method
    /// A POST's body, copied to curl when the transfer is configured (`CURLOPT_COPYPOSTFIELDS`).
    let body: [UInt8]?
    /// Whether the host is a loopback address (then no proxy is used).
    let isLoopback: Bool
    /// `GET scheme://host[:port]/path`, for error messages.
    var label: String { "\(method.rawValue) \(endpoint)" }
    /// Scrubs request header values out of error texts.
    let redactor: Redactor

    init(_ request: HTTPRequest) throws(TransportError) {
        let url = try CurlURL(parsing: request.url.absoluteString)
        guard let scheme = url.part(CURLUPART_SCHEME)?.lowercased(), let host = url.part(CURLUPART_HOST) else {
            throw .invalidRequest("the URL has no scheme or no host")
        }
        let port = url.part(CURLUPART_PORT).map { ":\($0)" } ?? ""
        let path = url.part(CURLUPART_PATH) ?? "/"
        let endpoint = "\(scheme)://\(host)\(port)\(path)"
        let isLoopback = LoopbackHost.contains(host)
        let label = "\(request.method.rawValue) \(endpoint)"

        switch scheme {
        case "https":
            break
        case "http":
            guard isLoopback else {
                throw .invalidRequest(
                    "\(label): plain http is allowed only to a loopback host (127.0.0.0/8, localhost, ::1); "
                        + "use https")
            }
        default:
            throw .invalidRequest("\(label): the scheme \"\(scheme)\" is not allowed; use https")
        }

        var list = HeaderList()
        for (name, value) in request.headers {
            // Messages name the header, never its value (it may be the API key).
            guard HeaderRules.isValidName(name) else {
                throw .invalidRequest("\(label): the header name \"\(name.prefix(40))\" is not a valid token")
            }
            guard HeaderRules.isValidValue(value) else {
                throw .invalidRequest("\(label): the value of header \"\(name)\" contains CR, LF or NUL")
            }
            // curl reads "Name:" as "remove this header" and "Name;" as "send it empty".
            guard list.append(value.isEmpty ? "\(name);" : "\(name): \(value)") else {
                throw .invalidRequest("\(label): libcurl could not allocate the header list")
            }
        }
        // curl would send `Expect: 100-continue` before a large POST body and wait for the server: "Expect:" drops it.
        if request.method == .post, !list.append("Expect:") {
            throw .invalidRequest("\(label): libcurl could not allocate the header list")
        }
        // Every stored property is set only here, after the last throw (noncopyable fields may not be set
        // conditionally).
        self.url = url
        self.headers = list
        self.endpoint = endpoint
        self.method = request.method
        self.body = request.body.map { [UInt8]($0) }
        self.isLoopback = isLoopback
        self.redactor = Redactor(secrets: request.headers.map(\.value))
    }
}

/// Hosts that plain http may reach: 127.0.0.0/8, `localhost` and `::1`, as curl's URL parser spells them.
enum LoopbackHost {
    static func contains(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        // Only the canonical dotted quad; curl normalises other IPv4 spellings to it. Anything else is refused,
        // which is the safe direction.
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.dropFirst().allSatisfy { octet in
            (1...3).contains(octet.count) && octet.allSatisfy { $0 >= "0" && $0 <= "9" }
                && (Int(octet).map { $0 <= 255 } ?? false)
        }
    }
}

/// RFC 9110 field syntax, as far as it protects against header injection.
enum HeaderRules {
    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || tokenPunctuation.contains(byte)
            }
    }

    static func isValidValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}

/// Removes secrets (request header values, and each long word in them such as the key after `Bearer`) from text.
struct Redactor: Sendable {
    private let secrets: [String]

    init(secrets: [String]) {
        var all: Set<String> = []
        for value in secrets {
            if value.count >= 8 { all.insert(value) }
            for word in value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }) where word.count >= 8 {
                all.insert(String(word))
            }
        }
        // Longest first, so a whole value goes before the words inside it.
        self.secrets = all.sorted { $0.count > $1.count }
    }

    func scrub(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "[redacted]")
        }
        return result
    }
}
