import Foundation
import Sandbox
import Synchronization
import TestSupport

/// A misbehaving API in front of a sandbox, on a fixed schedule: every `period`-th request gets the next fault
/// of `faults` (in turn); the others are forwarded to the sandbox and its answer relayed as it is.
///
/// The faults land on arrival numbers, not on dice, so every fault of the schedule happens in every run that
/// makes at least `period × faults.count` requests, whatever the timing.
final class FaultyProxy: Sendable {
    enum Fault: Sendable, Hashable, CaseIterable {
        /// The connection closed without an answer.
        case drop
        /// The sandbox's answer with half its body, the full `Content-Length` announced, then a hang-up.
        case truncate
        /// Stripe's 500 with `Stripe-Should-Retry: true`.
        case serverError
        /// Stripe's 429.
        case rateLimit
        /// The sandbox's answer, `slowDelay` late (past the client's request timeout).
        case slow
    }

    let period: Int
    let faults: [Fault]
    let slowDelay: Duration
    private let upstreamPort: Int
    private let state = Mutex((arrivals: 0, injected: [Fault: Int]()))

    private init(upstreamPort: Int, period: Int, faults: [Fault], slowDelay: Duration) {
        self.upstreamPort = upstreamPort
        self.period = period
        self.faults = faults
        self.slowDelay = slowDelay
    }

    /// How many times each fault was injected so far.
    var injected: [Fault: Int] { state.withLock { $0.injected } }

    /// Starts a proxy in front of `sandbox`, runs `body` with it and its server, stops it.
    static func with<T>(
        _ sandbox: SandboxServer, period: Int = 3, faults: [Fault] = Fault.allCases,
        slowDelay: Duration = .milliseconds(2_500), _ body: (FaultyProxy, StubServer) async throws -> T
    ) async throws -> T {
        let proxy = FaultyProxy(upstreamPort: sandbox.port, period: period, faults: faults, slowDelay: slowDelay)
        return try await StubServer.with({ request in proxy.reply(to: request) }) { server in
            try await body(proxy, server)
        }
    }

    private func reply(to request: StubServer.Request) -> StubServer.Reply {
        let fault = state.withLock { state -> Fault? in
            state.arrivals += 1
            guard state.arrivals % period == 0 else { return nil }
            let fault = faults[(state.arrivals / period - 1) % faults.count]
            state.injected[fault, default: 0] += 1
            return fault
        }
        let requestID = ("Request-Id", "req_proxy\(UUID().uuidString.prefix(8))")
        switch fault {
        case nil:
            return .computed { await self.forward(request) }
        case .drop:
            return .close
        case .truncate:
            return .computed {
                guard case .response(let status, let headers, let body) = await self.forward(request) else {
                    return .close
                }
                var head = "HTTP/1.1 \(status) OK\r\n"
                for (name, value) in headers { head += "\(name): \(value)\r\n" }
                head += "Content-Length: \(body.count)\r\n\r\n"
                return .raw(Array(head.utf8) + body.prefix(body.count / 2), close: true)
            }
        case .serverError:
            return .text(
                500, #"{"error":{"type":"api_error","message":"An unknown error occurred (injected)."}}"#,
                headers: [("Content-Type", "application/json"), ("Stripe-Should-Retry", "true"), requestID])
        case .rateLimit:
            let body = #"{"error":{"type":"invalid_request_error","code":"rate_limit","message":"Too many requests."}}"#
            let headers = [("Content-Type", "application/json"), ("Stripe-Rate-Limited-Reason", "global-rate")]
            return .text(429, body, headers: headers + [requestID])
        case .slow:
            let delay = slowDelay
            return .computed { .delayed(delay, await self.forward(request)) }
        }
    }

    private func forward(_ request: StubServer.Request) async -> StubServer.Reply {
        await SandboxRelay.forward(request, port: upstreamPort)
    }
}
