import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Sandbox
import Synchronization
import WorkerThreads

/// (h)'s second server: the responses an extraction received, served again by request target, byte for byte, with
/// no Stripe logic and no world in memory, run as a child process (this executable started again with ``flag``) so
/// that its CPU is not the benchmark's. What the tool spends against it is the tool's cost of those bytes alone,
/// whatever the sandbox does; a target it never recorded is answered 404 and counted.
enum RecordedBytesServer {
    static let flag = "--child-recorded-bytes"

    /// The child's body: serves the recording at `arguments[0]` on a free loopback port, prints its address, and when
    /// its standard input closes prints how many requests it could not answer from the recording, then stops.
    static func main(_ arguments: [String]) async throws {
        guard arguments.count == 1 else { throw BenchError("usage: \(flag) RECORDING") }
        let table = RecordedTable(lists: RecordedLists(try RecordingFile.read(URL(fileURLWithPath: arguments[0]))))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let channel = try await HTTPServerBootstrap.make(group: group) { RecordedBytesHandler(table: table) }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        FileHandle.standardOutput.write(Data("http://127.0.0.1:\(port)\n".utf8))
        _ = await OwnThread.run(name: "stdin") { FileHandle.standardInput.readDataToEndOfFile() }
        FileHandle.standardOutput.write(Data("\(table.misses.load(ordering: .relaxed))\n".utf8))
        try? await channel.close()
        try await group.shutdownGracefully()
    }
}

/// The recording, and the requests it had no answer for.
final class RecordedTable: Sendable {
    let lists: RecordedLists
    let misses = Atomic<Int>(0)

    init(lists: RecordedLists) { self.lists = lists }
}

/// Answers each request with the recorded response of its target (status, headers, body as received), or a 404.
final class RecordedBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let table: RecordedTable
    private var head: HTTPRequestHead?

    init(table: RecordedTable) { self.table = table }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let (status, recordedHeaders, body): (Int, [String: String], Data)
        switch table.lists.answer(head.uri) {
        case .recorded(let response):
            (status, recordedHeaders, body) = (response.status, response.headers, response.body)
        case .sliced(let code, let headers, let bytes): (status, recordedHeaders, body) = (code, headers, bytes)
        case .missing:
            table.misses.add(1, ordering: .relaxed)
            (status, recordedHeaders, body) = (
                404, ["content-type": "application/json"],
                Data(#"{"error": {"type": "invalid_request_error", "message": "Not in the recording."}}"#.utf8)
            )
        }
        var headers = HTTPHeaders()
        for (name, value) in recordedHeaders
        where name != "content-length" && name != "connection" && name != "transfer-encoding" {
            headers.add(name: name, value: value)
        }
        HTTPReply.send(status: status, headers: headers, body: body, to: head, context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
