import Foundation
import Sandbox
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response read off the wire.
struct WireResponse {
    var status: Int
    /// Header names lower-cased.
    var headers: [String: String]
    var body: Data
    /// Whether the body has all the bytes `Content-Length` announced.
    var complete: Bool

    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: body)
        return try #require(
            object as? [String: Any], "not a JSON object: \(String(decoding: body, as: UTF8.self).prefix(300))")
    }
}

struct WireError: Error, CustomStringConvertible {
    var description: String
}

/// A minimal HTTP/1.1 client over a blocking socket, so tests see exactly what the server wrote (drops,
/// truncated bodies, keep-alive) without a client library's retries or caching.
final class WireConnection {
    private let socket: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        #if canImport(Glibc)
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw WireError(description: "socket() failed") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(socket)
            throw WireError(description: "connect() failed")
        }
    }

    deinit { close(socket) }

    func send(_ method: String = "GET", _ path: String, headers: [(String, String)]) throws {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if method != "GET" { text += "Content-Length: 0\r\n" }
        text += "\r\n"
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
        guard sent == bytes.count else { throw WireError(description: "write() failed") }
    }

    /// Reads more bytes; `false` at end of stream.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Reads one response; status 0 when the server closed the connection without answering.
    func receive() throws -> WireResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = buffer.firstRange(of: separator)?.lowerBound
            if headerEnd == nil, !fill() {
                return WireResponse(status: 0, headers: [:], body: Data(buffer), complete: false)
            }
        }
        let end = headerEnd ?? 0
        let lines = String(decoding: buffer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? -1
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = end + 4
        while buffer.count - bodyStart < length, fill() {}
        let available = min(length, buffer.count - bodyStart)
        let body = Data(buffer[bodyStart..<(bodyStart + available)])
        buffer.removeFirst(bodyStart + available)
        return WireResponse(status: status, headers: headers, body: body, complete: available == length)
    }

    func request(
        _ path: String, key: String? = testKey, method: String = "GET", headers: [(String, String)] = []
    ) throws -> WireResponse {
        var all = headers
        if let key { all.append(("Authorization", "Bearer \(key)")) }
        try send(method, path, headers: all)
        return try receive()
    }
}

let testKey = "sk_test_51SandboxTestKey0000000000000001"

/// One request on a fresh connection.
func get(
    _ server: SandboxServer, _ path: String, key: String? = testKey, method: String = "GET",
    headers: [(String, String)] = []
) throws -> WireResponse {
    try WireConnection(port: server.port).request(path, key: key, method: method, headers: headers)
}

func startServer(
    charges: Int = 120, seed: UInt64 = 7, days: Int = 30, _ configure: (inout SandboxOptions) -> Void = { _ in }
) async throws -> SandboxServer {
    var options = SandboxOptions()
    options.charges = charges
    options.seed = seed
    options.days = days
    configure(&options)
    return try await SandboxServer.start(options)
}

extension Dictionary where Key == String, Value == Any {
    func string(_ key: String) -> String? { self[key] as? String }
    func int(_ key: String) -> Int64? { (self[key] as? NSNumber)?.int64Value }
    func object(_ key: String) -> [String: Any]? { self[key] as? [String: Any] }
    func list(_ key: String) -> [[String: Any]]? { self[key] as? [[String: Any]] }
}

/// Every item of a list, paged by 100 with `starting_after`.
func listAll(_ connection: WireConnection, _ path: String) throws -> [[String: Any]] {
    var items: [[String: Any]] = []
    var cursor: String?
    repeat {
        let separator = path.contains("?") ? "&" : "?"
        let json = try connection.request(
            path + separator + "limit=100" + (cursor.map { "&starting_after=\($0)" } ?? "")
        ).json()
        let data = json.list("data") ?? []
        items += data
        cursor = json["has_more"] as? Bool == true ? data.last?.string("id") : nil
    } while cursor != nil
    return items
}

/// Percent-encodes a query value.
func q(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
}
