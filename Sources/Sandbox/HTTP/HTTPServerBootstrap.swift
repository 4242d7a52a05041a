import NIOCore
import NIOHTTP1
import NIOPosix

/// The HTTP/1.1 server the sandbox and the benchmark's recorded-bytes server share: a backlog of 256, addresses
/// reused, `TCP_NODELAY`, NIO's HTTP pipeline with its error handling, then one handler per connection.
package enum HTTPServerBootstrap {
    /// A bootstrap on `group` whose every connection ends in the handler `makeHandler` makes for it.
    package static func make(
        group: MultiThreadedEventLoopGroup, handler makeHandler: @escaping @Sendable () -> any ChannelHandler
    ) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(makeHandler())
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    }
}

/// How the sandbox and the benchmark's recorded-bytes server answer a request on an HTTP/1.1 connection.
package enum HTTPReply {
    /// Writes a response to the request `head`: `status`, `headers` with the whole body's `Content-Length`, and the
    /// body, then ends it, closing the connection after it when the request does not keep it alive. `truncated`:
    /// half the body is sent and the connection hung up, as a connection dropped mid-response looks.
    package static func send(
        status: Int, headers: HTTPHeaders, body: some Collection<UInt8>, to head: HTTPRequestHead,
        context: ChannelHandlerContext, truncated: Bool = false
    ) {
        var headers = headers
        headers.add(name: "Content-Length", value: String(body.count))
        let keepAlive = head.isKeepAlive && !truncated
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let responseHead = HTTPResponseHead(
            version: head.version, status: HTTPResponseStatus(statusCode: status), headers: headers)
        context.write(NIOAny(HTTPServerResponsePart.head(responseHead)), promise: nil)
        let sent = truncated ? body.count / 2 : body.count
        var buffer = context.channel.allocator.buffer(capacity: sent)
        buffer.writeBytes(body.prefix(sent))
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(buffer))), promise: nil)
        if truncated {
            // Flush what there is and hang up: the client sees fewer bytes than Content-Length announced.
            context.flush()
            context.close(promise: nil)
            return
        }
        let written = context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)))
        if !keepAlive {
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.whenComplete { _ in loopBound.value.close(promise: nil) }
        }
    }
}
