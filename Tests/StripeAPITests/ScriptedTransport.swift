import Foundation
import StripeAPI
import Synchronization

/// A transport that answers from a script and records what it was asked.
final class ScriptedTransport: HTTPTransport, Sendable {
    enum Step {
        case respond(Int, String, headers: [String: String] = [:])
        case fail(TransportError)
    }

    private let state: Mutex<(steps: [Step], requests: [HTTPRequest])>

    init(_ steps: [Step]) { self.state = Mutex((steps, [])) }

    /// The requests asked so far, in order.
    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let (step, number) = state.withLock { state in
            state.requests.append(request)
            let step: Step = state.steps.isEmpty ? .respond(500, "{}") : state.steps.removeFirst()
            return (step, state.requests.count)
        }
        switch step {
        case .respond(let status, let body, let headers):
            var all = ["request-id": "req_\(number)", "content-type": "application/json"]
            all.merge(headers) { $1 }
            return HTTPResponse(status: status, headers: all, body: Data(body.utf8))
        case .fail(let error):
            throw error
        }
    }

    var requestCount: Int { state.withLock { $0.requests.count } }
}
