import Foundation
import TestSupport

/// Forwards a request a stub server received to the sandbox and relays its answer: what the proxies in front of
/// the sandbox share.
enum SandboxRelay {
    /// The sandbox's answer to `request`, fetched on a thread of its own (the raw client blocks).
    static func forward(_ request: StubServer.Request, port: Int) async -> StubServer.Reply {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: relay(request, port: port)) }
        }
    }

    /// The request's method, URI, Stripe headers and body (a report run's form) sent to the sandbox; its status, body and Stripe headers
    /// back (a sandbox that hangs up makes the proxy hang up).
    private static func relay(_ request: StubServer.Request, port: Int) -> StubServer.Reply {
        let sent = ["authorization", "stripe-version", "user-agent", "content-type", "idempotency-key"]
        let relayed = ["content-type", "request-id", "stripe-version", "stripe-should-retry", "retry-after", "date"]
        do {
            let connection = try WireConnection(port: port, key: nil)
            let response = try connection.request(
                request.uri, key: nil, method: request.method,
                headers: request.headers.filter { sent.contains($0.name.lowercased()) }.map { ($0.name, $0.value) },
                body: request.body)
            guard response.status != 0, response.complete else { return .close }
            let headers = response.headers.filter { relayed.contains($0.key) }.map { ($0.key, $0.value) }
            return .response(status: response.status, headers: headers, body: Array(response.body))
        } catch {
            return .close
        }
    }
}
