import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A scripted HTTP/1.1 server on 127.0.0.1 (port chosen by the OS) for the transport's tests.
///
/// Requests are decoded by NIO; replies are written as raw bytes, so a script can also send what a
/// well-behaved server would not (a short body, a `100 Continue`, nothing at all).
final class TestServer: Sendable {
    /// A request as the server received it.
    struct Request: Sendable {
        var method: HTTPMethod
        var uri: String
        var headers: HTTPHeaders
    }

    /// What the server does with a request.
    indirect enum Reply: Sendable {
        /// A complete response; `Content-Length` is added.
        case response(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])
        /// These exact bytes, then optionally close the connection.
        case raw([UInt8], close: Bool)
        /// Close the connection without answering.
        case close
        /// Another reply, later.
        case delayed(TimeAmount, Reply)

        static func text(_ status: Int, _ body: String, headers: [(String, String)] = []) -> Reply {
            .response(status: status, headers: headers, body: Array(body.utf8))
        }
    }

    typealias Script = @Sendable (Request) -> Reply

    let port: Int
    private let channel: any Channel
    private let recorder: Recorder

    private init(port: Int, channel: any Channel, recorder: Recorder) {
        self.port = port
        self.channel = channel
        self.recorder = recorder
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far, in order.
    var requests: [Request] { recorder.state.withLock { $0.requests } }

    /// How many TCP connections the server accepted.
    var acceptedConnections: Int { recorder.state.withLock { $0.acceptedConnections } }

    static func start(_ script: @escaping Script) async throws -> TestServer {
        let recorder = Recorder()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                recorder.state.withLock { $0.acceptedConnections += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)),
                        ScriptedHandler(
                            script: script,
                            onRequest: { request in recorder.state.withLock { $0.requests.append(request) } })
                    )
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else { throw TestServerError.noPort }
        return TestServer(port: port, channel: channel, recorder: recorder)
    }

    /// Stops listening (open connections close as their clients leave).
    func stop() async throws {
        try await channel.close()
    }

    /// Runs `body` with a fresh server and always stops it afterwards.
    static func with<T>(_ script: @escaping Script, _ body: (TestServer) async throws -> T) async throws -> T {
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
    static func unusedPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else { throw TestServerError.noPort }
        try await channel.close()
        return port
    }

}

enum TestServerError: Error { case noPort }

/// What the server saw, shared with its connections' handlers.
private final class Recorder: Sendable {
    struct State {
        var requests: [TestServer.Request] = []
        var acceptedConnections = 0
    }
    let state = Mutex(State())
}

/// Records each request and answers it as the script says.
private final class ScriptedHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let script: TestServer.Script
    private let onRequest: @Sendable (TestServer.Request) -> Void
    private var head: HTTPRequestHead?

    init(script: @escaping TestServer.Script, onRequest: @escaping @Sendable (TestServer.Request) -> Void) {
        self.script = script
        self.onRequest = onRequest
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            let request = TestServer.Request(method: head.method, uri: head.uri, headers: head.headers)
            onRequest(request)
            reply(script(request), context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Not HTTP (a TLS ClientHello, say): hang up.
        context.close(promise: nil)
    }

    private func reply(_ reply: TestServer.Reply, context: ChannelHandlerContext) {
        switch reply {
        case .close:
            context.close(promise: nil)
        case .raw(let bytes, let close):
            let written = context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)))
            if close {
                written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            }
        case .response(let status, let headers, let body):
            let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
            var text = "HTTP/1.1 \(status) \(reason)\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            text += "Content-Length: \(body.count)\r\n\r\n"
            var buffer = context.channel.allocator.buffer(capacity: text.utf8.count + body.count)
            buffer.writeString(text)
            buffer.writeBytes(body)
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        case .delayed(let amount, let later):
            context.eventLoop.assumeIsolated().scheduleTask(in: amount) {
                guard context.channel.isActive else { return }
                self.reply(later, context: context)
            }
        }
    }
}
