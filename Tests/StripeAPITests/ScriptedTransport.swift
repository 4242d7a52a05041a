import Foundation
import StripeAPI

/// A transport that answers from a script and records what it was asked.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    enum Step {
        case respond(Int, String, headers: [String: String] = [:])
        case fail(TransportError)
    }

    private let lock = NSLock()
    private var steps: [Step]
    private(set) var requests: [HTTPRequest] = []

    init(_ steps: [Step]) { self.steps = steps }

    func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let step: Step = lock.withLock {
            requests.append(request)
            return steps.isEmpty ? .respond(500, "{}") : steps.removeFirst()
        }
        switch step {
        case .respond(let status, let body, let headers):
            var all = ["request-id": "req_\(requests.count)", "content-type": "application/json"]
            all.merge(headers) { $1 }
            return HTTPResponse(status: status, headers: all, body: Data(body.utf8))
        case .fail(let error):
            throw error
        }
    }

    var requestCount: Int { lock.withLock { requests.count } }
}
