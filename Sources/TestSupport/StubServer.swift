import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A scripted HTTP/1.1 server on 127.0.0.1 (port chosen by the OS) for tests that need a server to misbehave on
/// cue, or to serve hand-made objects.
///
/// Requests are decoded by NIO; replies are written as raw bytes, so a script can also send what a well-behaved
/// server would not (a short body, a `100 Continue`, nothing at all). The server records what it saw, and a test
/// can wait for an event (a request arriving, a connection closing) instead of sleeping.
public final class StubServer: Sendable {
    /// A request as the server received it.
    public struct Request: Sendable {
        public var method: String
        public var uri: String
        /// Header fields in the order they arrived, names as sent.
        public var headers: [(name: String, value: String)]
        /// The connection it came on: 1 for the first the server accepted, then 2, …
        public var connection: Int
        /// The request's body (a POST's form), empty for none.
        public var body: [UInt8] = []

        /// The values of the header `name` (case-insensitive), in order.
        public func values(of name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }

        /// The first value of the header `name` (case-insensitive).
        public func header(_ name: String) -> String? { values(of: name).first }

        /// The URI before `?`.
        public var path: String { String(uri.prefix { $0 != "?" }) }

        /// The query's name–value pairs in order, percent- and `+`-decoded.
        public var query: [(name: String, value: String)] {
            guard let mark = uri.firstIndex(of: "?") else { return [] }
            return uri[uri.index(after: mark)...].split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
                }
                return (name: parts.first ?? "", value: parts.count > 1 ? parts[1] : "")
            }
        }
    }

    /// What the server does with a request.
    public indirect enum Reply: Sendable {
        /// A complete response; `Content-Length` is added.
        case response(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])
        /// These exact bytes, then optionally close the connection.
        case raw([UInt8], close: Bool)
        /// Close the connection without answering.
        case close
        /// Another reply, after `delay` (unless the client has hung up by then).
        case delayed(Duration, Reply)
        /// The reply `produce` returns, for replies that take asynchronous work (forwarding the request to
        /// another server, say); it runs as a task of its own, so it may wait.
        case computed(@Sendable () async -> Reply)

        /// A complete response with a UTF-8 body.
        public static func text(_ status: Int, _ body: String, headers: [(String, String)] = []) -> Reply {
            .response(status: status, headers: headers, body: Array(body.utf8))
        }
    }

    /// Decides the reply to each request; called on the connection's event loop, so it must not block.
    public typealias Script = @Sendable (Request) -> Reply

    /// The port the server listens on.
    public let port: Int
    private let channel: any Channel
    private let log: StubServerLog

    private init(port: Int, channel: any Channel, log: StubServerLog) {
        self.port = port
        self.channel = channel
        self.log = log
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far, in order.
    public var requests: [Request] { log.seen.requests }

    /// How many TCP connections the server accepted.
    public var acceptedConnections: Int { log.seen.acceptedConnections }

    /// Starts a server that answers each request as `script` says.
    public static func start(_ script: @escaping Script) async throws -> StubServer {
        let log = StubServerLog()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let connection = log.connectionAccepted()
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)),
                        StubServerHandler(connection: connection, script: script, log: log))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw StubServerError("the stub server's channel has no local port after binding to 127.0.0.1:0")
        }
        return StubServer(port: port, channel: channel, log: log)
    }

    /// Stops listening (open connections close as their clients leave) and wakes every waiting test.
    public func stop() async throws {
        log.stop()
        try await channel.close()
    }

    /// Runs `body` with a fresh server and always stops it afterwards.
    public static func with<T>(_ script: @escaping Script, _ body: (StubServer) async throws -> T) async throws -> T {
        let server = try await start(script)
        do {
            let result = try await body(server)
            try await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    /// A port on 127.0.0.1 with nothing listening (bound, then closed, so it was free a moment ago).
    public static func unusedPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw StubServerError("a probe channel bound to 127.0.0.1:0 has no local port")
        }
        try await channel.close()
        return port
    }

    // MARK: Waiting for events

    /// Waits until a request matching `predicate` has arrived (at once if one already has) and returns the
    /// first such request; `nil` when the server stops or the waiting task is cancelled first.
    public func firstRequest(where predicate: @escaping @Sendable (Request) -> Bool) async -> Request? {
        await log.wait { $0.requests.contains(where: predicate) }
        return requests.first(where: predicate)
    }

    /// Waits until `connection` has closed, by either side (at once if it already has); `false` when the server
    /// stops or the waiting task is cancelled first.
    public func closed(connection: Int) async -> Bool {
        await log.wait { $0.closedConnections.contains(connection) }
    }
}

/// Why the stub server could not start.
public struct StubServerError: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) { self.description = description }
}
