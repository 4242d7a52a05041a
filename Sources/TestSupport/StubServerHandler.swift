import NIOCore
import NIOHTTP1
import ReconCore

/// Records each request of one connection and answers it as the script says.
final class StubServerHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let connection: Int
    private let script: StubServer.Script
    private let log: StubServerLog
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(connection: Int, script: @escaping StubServer.Script, log: StubServerLog) {
        self.connection = connection
        self.script = script
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let buffer):
            body += buffer.readableBytesView
        case .end:
            guard let head else { return }
            self.head = nil
            let request = StubServer.Request(
                method: head.method.rawValue, uri: head.uri,
                headers: head.headers.map { (name: $0.name, value: $0.value) }, connection: connection, body: body)
            body = []
            log.received(request)
            reply(script(request), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        log.connectionClosed(connection)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Not HTTP (a TLS ClientHello, say): hang up.
        context.close(promise: nil)
    }

    private func reply(_ reply: StubServer.Reply, context: ChannelHandlerContext) {
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
        case .computed(let produce):
            let eventLoop = context.eventLoop
            let bound = NIOLoopBound((handler: self, context: context), eventLoop: eventLoop)
            Task {
                let later = await produce()
                eventLoop.execute {
                    let (handler, context) = bound.value
                    guard context.channel.isActive else { return }
                    handler.reply(later, context: context)
                }
            }
        case .delayed(let delay, let later):
            context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(delay.wholeNanoseconds)) {
                guard context.channel.isActive else { return }
                self.reply(later, context: context)
            }
        }
    }
}
