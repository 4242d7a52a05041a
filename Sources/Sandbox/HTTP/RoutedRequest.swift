/// A request after routing: the endpoint it names (for statistics and per-endpoint rate limits) and, when it
/// can already be answered (bad key, write method, unknown URL), that answer.
struct RoutedRequest: Sendable {
    var endpoint: String
    var early: SandboxResponse?
    var segments: [String]
    var query: [(String, String)]
    /// The request body (a POST's form), empty for a GET.
    var body: [UInt8] = []
}
