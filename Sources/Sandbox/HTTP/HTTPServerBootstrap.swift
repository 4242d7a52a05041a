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
