/// An HTTP response before it is written.
struct SandboxResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8]
    /// Objects the body holds because the request expanded them (each costs the per-expanded-object latency).
    var expandedObjects = 0
    /// `application/json`, or `text/csv` for a report's file.
    var contentType = "application/json"
}

/// A request that cannot be answered with data, carrying Stripe's error response.
struct RequestFailure: Error {
    var response: SandboxResponse
}
