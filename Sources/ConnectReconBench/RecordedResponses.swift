import Foundation
import StripeAPI
import Synchronization

/// One response as the tool received it, with the request target it answered (`/v1/charges?limit=100&…`, as sent).
struct RecordedResponse: Sendable {
    var target: String
    var status: Int
    var headers: [String: String]
    var body: Data
}

/// Keeps every response that passes through it, with its request's target: the bytes the extraction parsed, which
/// (h) parses again with `JSONSerialization` and serves again from a server with no Stripe logic
/// (``RecordedBytesServer``).
final class ResponseRecorder: HTTPTransport, Sendable {
    private let inner: any HTTPTransport
    private let recorded = Mutex<[RecordedResponse]>([])

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let response = try await inner.get(request)
        let target = Self.target(of: request.url)
        recorded.withLock {
            $0.append(
                RecordedResponse(
                    target: target, status: response.status, headers: response.headers, body: response.body))
        }
        return response
    }

    var responses: [RecordedResponse] { recorded.withLock { $0 } }
    var bodies: [Data] { responses.map(\.body) }

    /// The request target a server sees for `url`: its path and query as sent, percent-encoding kept.
    static func target(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? url.path
        return components?.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }
}

/// The recorded responses as a file the ``RecordedBytesServer`` child reads: per response, its target, status,
/// headers and body, each length-prefixed (little-endian `UInt32`).
enum RecordingFile {
    static func write(_ responses: [RecordedResponse], to url: URL) throws {
        var data = Data()
        func append(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func append(_ bytes: Data) {
            append(bytes.count)
            data.append(bytes)
        }
        append(responses.count)
        for response in responses {
            append(Data(response.target.utf8))
            append(response.status)
            append(response.headers.count)
            for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
                append(Data(name.utf8))
                append(Data(value.utf8))
            }
            append(response.body)
        }
        try data.write(to: url)
    }

    static func read(_ url: URL) throws -> [RecordedResponse] {
        let data = try Data(contentsOf: url)
        var offset = data.startIndex
        func integer() throws -> Int {
            guard data.endIndex - offset >= 4 else { throw BenchError("\(url.path): the recording is cut short") }
            let value = data[offset..<offset + 4].reduce(into: (0, 0)) { result, byte in
                result.0 |= Int(byte) << result.1
                result.1 += 8
            }.0
            offset += 4
            return value
        }
        func bytes() throws -> Data {
            let count = try integer()
            guard data.endIndex - offset >= count else { throw BenchError("\(url.path): the recording is cut short") }
            defer { offset += count }
            return data[offset..<offset + count]
        }
        func text() throws -> String { String(decoding: try bytes(), as: UTF8.self) }
        return try (0..<integer()).map { _ in
            let target = try text()
            let status = try integer()
            var headers: [String: String] = [:]
            for _ in 0..<(try integer()) { headers[try text()] = try text() }
            return RecordedResponse(target: target, status: status, headers: headers, body: Data(try bytes()))
        }
    }
}
