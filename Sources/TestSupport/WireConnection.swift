import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response read off the wire.
public struct WireResponse: Sendable {
    /// The status code; 0 when the server closed the connection without answering.
    public var status: Int
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: Data
    /// Whether the body has all the bytes `Content-Length` announced.
    public var complete: Bool

    /// The body as a JSON object; throws, quoting the body, when it is not one.
    public func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: body)
        guard let dictionary = object as? [String: Any] else {
            throw WireError("not a JSON object: \(String(decoding: body, as: UTF8.self).prefix(300))")
        }
        return dictionary
    }
}

/// Why a raw request failed: the socket call or the answer that was not what the caller needed.
public struct WireError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// A minimal HTTP/1.1 client over one blocking loopback socket, so tests see exactly what a server wrote (drops,
/// truncated bodies, keep-alive) without a client library's retries or caching. Requests on one connection
/// are sent one after another and reuse it (keep-alive).
public final class WireConnection {
    private let socket: Int32
    private var buffer: [UInt8] = []
    /// The key sent as `Authorization: Bearer …` when a request names none.
    public let key: String?

    /// Connects to `127.0.0.1:port`; a read waits at most `receiveTimeout` seconds.
    public init(port: Int, key: String?, receiveTimeout: Int = 30) throws {
        #if canImport(Glibc)
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw WireError("socket() failed: errno \(errno)") }
        self.key = key
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let socket = self.socket
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(socket)
            throw WireError("connect() to 127.0.0.1:\(port) failed: errno \(code); is the server running?")
        }
    }

    deinit { close(socket) }

    /// Writes one request with `headers` and `body` (and its `Content-Length` for any method but GET).
    public func send(
        _ method: String = "GET", _ path: String, headers: [(String, String)], body: [UInt8] = []
    ) throws {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if method != "GET" { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        let bytes = Array(text.utf8) + (method != "GET" ? body : [])
        let sent = bytes.withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
        guard sent == bytes.count else { throw WireError("write() failed: errno \(errno)") }
    }

    /// Reads more bytes; `false` at the end of the stream.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Reads one response; status 0 when the server closed the connection without answering.
    public func receive() throws -> WireResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd = buffer.firstRange(of: separator)?.lowerBound
        while headerEnd == nil {
            guard fill() else { return WireResponse(status: 0, headers: [:], body: Data(buffer), complete: false) }
            headerEnd = buffer.firstRange(of: separator)?.lowerBound
        }
        let end = headerEnd ?? 0
        let lines = String(decoding: buffer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? -1
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

    /// Sends one request with the connection's ``key`` and reads its response.
    public func request(
        _ path: String, method: String = "GET", headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> WireResponse {
        try request(path, key: key, method: method, headers: headers, body: body)
    }

    /// Sends one request with `key` (none when `nil`) and reads its response.
    public func request(
        _ path: String, key: String?, method: String = "GET", headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> WireResponse {
        var all = headers
        if let key { all.append(("Authorization", "Bearer \(key)")) }
        try send(method, path, headers: all, body: body)
        return try receive()
    }

    /// `GET path` as a JSON object; throws, naming the path, unless the answer is a 200 with a whole object.
    public func object(_ path: String) throws -> [String: Any] {
        let response = try request(path)
        guard response.status == 200, response.complete else {
            throw WireError(
                "GET \(path): \(response.status) \(String(decoding: response.body, as: UTF8.self).prefix(300))")
        }
        return try response.json()
    }

    /// Every item of a Stripe list endpoint, paged 100 at a time with `starting_after`.
    public func list(_ path: String) throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var after: String?
        while true {
            var url = path + (path.contains("?") ? "&" : "?") + "limit=100"
            if let after { url += "&starting_after=" + after }
            let page = try object(url)
            let data = (page["data"] as? [[String: Any]]) ?? []
            items.append(contentsOf: data)
            guard (page["has_more"] as? Bool) == true, let last = data.last?["id"] as? String else { return items }
            after = last
        }
    }
}
