import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import ReconCore

/// A Stripe-compatible HTTP/1.1 server on the loopback interface, serving a ``SandboxWorld`` read-only (but for the
/// Reporting API's report runs, which it creates on `POST /v1/reporting/report_runs`).
///
/// ```swift
/// let server = try await SandboxServer.start(SandboxOptions())
/// print("Sandbox listening on \(server.baseURL) (\(server.summary))")
/// ```
public final class SandboxServer: Sendable {
    /// The port the server listens on (the one picked when the options asked for 0).
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    /// The world it serves.
    public let world: SandboxWorld
    /// The options it was started with.
    public let options: SandboxOptions

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let core: ServerCore

    private init(
        port: Int, baseURL: URL, world: SandboxWorld, options: SandboxOptions, group: MultiThreadedEventLoopGroup,
        channel: any Channel, core: ServerCore
    ) {
        self.port = port
        self.baseURL = baseURL
        self.world = world
        self.options = options
        self.group = group
        self.channel = channel
        self.core = core
    }

    /// Generates the world and starts listening. The rate limits (``SandboxOptions/rateLimit``,
    /// ``SandboxOptions/endpointRateLimit``) measure their windows with `clock`; tests pass a clock they advance
    /// themselves.
    public static func start(
        _ options: SandboxOptions, clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> SandboxServer {
        let loopback = ["127.0.0.1", "::1", "localhost"]
        guard loopback.contains(options.host) else {
            throw SandboxError(
                message: "The sandbox listens only on the loopback interface (127.0.0.1, ::1 or localhost), not on "
                    + "'\(options.host.prefix(60))': it accepts any test key and must not be reachable from the "
                    + "network.",
                isBadInput: true)
        }
        guard (0...65_535).contains(options.port) else {
            throw SandboxError(message: "Port \(options.port) is not between 0 and 65535.", isBadInput: true)
        }
        guard options.charges >= 0, options.days >= 1 else {
            throw SandboxError(message: "The sandbox needs at least 1 day and 0 or more charges.", isBadInput: true)
        }
        guard (0...23).contains(options.hours) else {
            throw SandboxError(
                message: "The sandbox's extra hours must be from 0 to 23, not \(options.hours): whole days go in days.",
                isBadInput: true)
        }
        for (name, rate) in [
            ("fail rate", options.failRate), ("drop rate", options.dropRate), ("truncate rate", options.truncateRate),
            ("slow rate", options.slowRate), ("transfer group share", options.transferGroupShare),
        ] where !(0...1).contains(rate) {
            throw SandboxError(message: "The \(name) is a share between 0 and 1, not \(rate).", isBadInput: true)
        }
        try options.checkAsOf()
        let world = SandboxWorld(
            seed: options.seed, charges: options.charges, start: options.start, end: options.end, asOf: options.asOf,
            transferGroupShare: options.transferGroupShare, movesByHand: options.movesByHand,
            otherMoney: options.otherMoney)
        let reportRuns = ReportRunTable(failRuns: options.reportRunsFail, neverFinish: options.reportRunsNeverFinish)
        let router = Router(
            storage: world.storage, restrictedKeyForbiddenResources: options.restrictedKeyForbiddenResources,
            hiddenBalanceTransactions: options.hiddenBalanceTransactions, reportRuns: reportRuns,
            reportLineOffsets: options.reportLineOffsets)
        let core = ServerCore(router: router, faults: FaultState(options: options, clock: clock))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let bootstrap = HTTPServerBootstrap.make(group: group) { SandboxHTTPHandler(core: core) }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(
                host: options.host == "localhost" ? "127.0.0.1" : options.host, port: options.port
            ).get()
        } catch {
            try? await group.shutdownGracefully()
            throw SandboxError(
                message: "The sandbox could not listen on \(options.host):\(options.port) (\(error)). "
                    + "Choose another port, or 0 to pick a free one.",
                isBadInput: false)
        }
        let port = channel.localAddress?.port ?? options.port
        let host = options.host == "::1" ? "[::1]" : "127.0.0.1"
        guard let url = URL(string: "http://\(host):\(port)") else {
            throw SandboxError(message: "Could not form the sandbox's URL.", isBadInput: false)
        }
        // Report files are served at the server's own address.
        reportRuns.baseURL = url.absoluteString
        return SandboxServer(
            port: port, baseURL: url, world: world, options: options, group: group, channel: channel, core: core)
    }

    /// `seed 42, 2000 charges, 2026-11-01..2026-12-01, 9876 objects` plus the active faults; with extra hours the
    /// end is a time (`2026-11-01..2026-12-01T05:00:00Z`); served as of an earlier moment, `as of` that moment
    /// follows the range.
    public var summary: String {
        let from = RFC3339.utcString(world.start).prefix(10)
        let planned = RFC3339.utcString(world.plannedEnd)
        let to = options.hours > 0 ? Substring(planned) : planned.prefix(10)
        var parts = ["seed \(options.seed)", "\(options.charges) charges", "\(from)..\(to)"]
        if options.asOf != nil { parts.append("as of \(RFC3339.utcString(world.end))") }
        parts.append("\(world.objectCount) objects")
        if options.latency > .zero { parts.append("latency \(options.latency)") }
        if options.expansionLatency > .zero { parts.append("\(options.expansionLatency) per expanded object") }
        if options.failRate > 0 { parts.append("fail rate \(options.failRate)") }
        if let rate = options.rateLimit { parts.append("rate limit \(rate)/s") }
        if let rate = options.endpointRateLimit { parts.append("endpoint rate limit \(rate)/s") }
        if options.dropRate > 0 { parts.append("drop rate \(options.dropRate)") }
        if options.truncateRate > 0 { parts.append("truncate rate \(options.truncateRate)") }
        if options.slowRate > 0 { parts.append("slow rate \(options.slowRate) (+\(options.slowLatency))") }
        return parts.joined(separator: ", ")
    }

    /// Requests and answers so far.
    public var requestStats: SandboxRequestStats { core.faults.stats }

    /// Stops listening, closes the connections and stops the event loops.
    public func shutdown() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }
}

/// What every connection's handler shares: the router and the fault state.
final class ServerCore: Sendable {
    let router: Router
    let faults: FaultState
    let latency: TimeAmount
    let slowLatency: TimeAmount
    /// Added per expanded object in an answer.
    let expansionLatency: TimeAmount
    let stripeVersion = "2026-07-29.dahlia"

    init(router: Router, faults: FaultState) {
        self.router = router
        self.faults = faults
        latency = .nanoseconds(max(0, faults.options.latency.wholeNanoseconds))
        slowLatency = .nanoseconds(max(0, faults.options.slowLatency.wholeNanoseconds))
        expansionLatency = .nanoseconds(max(0, faults.options.expansionLatency.wholeNanoseconds))
    }

    /// How long to wait before answering: the latency, the expansion latency for each expanded object, plus a
    /// spike for the slow rate's share.
    func delay(for outcome: Outcome) -> TimeAmount {
        var delay = faults.rollSlow() ? latency + slowLatency : latency
        if case .respond(let response, _) = outcome, response.expandedObjects > 0 {
            delay = delay + .nanoseconds(expansionLatency.nanoseconds * Int64(response.expandedObjects))
        }
        return delay
    }

    enum Outcome {
        case drop
        case respond(SandboxResponse, truncate: Bool)
    }

    func handle(_ head: HTTPRequestHead, body: [UInt8] = []) -> Outcome {
        let routed = router.route(
            method: head.method.rawValue, uri: head.uri, authorization: head.headers.first(name: "Authorization"),
            body: body)
        var response: SandboxResponse
        var truncate = false
        switch faults.decide(endpoint: routed.endpoint) {
        case .drop:
            return .drop
        case .rateLimited(let reason):
            response = router.error(
                429, type: "invalid_request_error", code: "rate_limit",
                message: "Too many requests hit the API too quickly. We recommend an exponential backoff of your "
                    + "requests.",
                docURL: "https://stripe.com/docs/error-codes/rate-limit",
                extraHeaders: [("Stripe-Rate-Limited-Reason", reason)])
        case .fail:
            response = router.error(
                500, type: "api_error",
                message: "An unknown error occurred (injected by the sandbox's fail rate). Please retry the request.",
                extraHeaders: [("Stripe-Should-Retry", "true")])
        case .serve(let cut):
            response = router.respond(routed)
            truncate = cut
        }
        let requestID = StripeIDCodec(seed: faults.options.seed).id(
            .request, Int(faults.nextRequestNumber() % 3_000_000_000_000))
        response.headers.append(("Request-Id", requestID))
        response.headers.append(("Stripe-Version", head.headers.first(name: "Stripe-Version") ?? stripeVersion))
        response.headers.append(("Content-Type", response.contentType))
        response.headers.append(("Cache-Control", "no-cache, no-store"))
        faults.record(status: response.status, expandedObjects: response.expandedObjects)
        return .respond(response, truncate: truncate)
    }
}

/// One connection: reads a request, answers it (after the configured latency), keeps the connection alive.
final class SandboxHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let core: ServerCore
    private var head: HTTPRequestHead?
    /// The request's body so far (a report run's form); at most ``maximumBody`` bytes are kept.
    private var body: [UInt8] = []
    private static let maximumBody = 65_536

    init(core: ServerCore) { self.core = core }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.removeAll(keepingCapacity: true)
        case .body(let buffer):
            // A body beyond the limit is cut: the form it was is then refused as invalid.
            let room = Self.maximumBody - body.count
            if room > 0 { body += buffer.readableBytesView.prefix(room) }
        case .end:
            guard let head else { return }
            self.head = nil
            let outcome = core.handle(head, body: body)
            body.removeAll(keepingCapacity: true)
            let delay = core.delay(for: outcome)
            if delay > .zero {
                context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
                    self.finish(outcome, head: head, context: context)
                }
            } else {
                finish(outcome, head: head, context: context)
            }
        }
    }

    private func finish(_ outcome: ServerCore.Outcome, head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        switch outcome {
        case .drop:
            context.close(promise: nil)
        case .respond(let response, let truncate):
            HTTPReply.send(
                status: response.status, headers: HTTPHeaders(response.headers), body: response.body, to: head,
                context: context, truncated: truncate)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
