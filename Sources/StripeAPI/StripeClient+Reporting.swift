import Foundation
import ReconCore

// POST requests and downloads: what the Reporting API needs beyond the client's reads.

extension StripeClient {
    // MARK: - POST

    /// Creates an object with a POST of `form` (`application/x-www-form-urlencoded`, names and values
    /// percent-encoded, in order, a name repeated as often as it appears) to `path`, and decodes the answer.
    ///
    /// The request carries an `Idempotency-Key`, a fresh UUID for this call and the same on each of its retries, so
    /// a retried POST never creates a second object (https://docs.stripe.com/api/idempotent_requests). It is
    /// otherwise retried like a GET; errors say POST.
    public func post<Object: StripeObject>(
        _ type: Object.Type, path: String, form: [(String, String)], endpoint: String
    ) async throws(StripeClientError) -> Object {
        let request = makePostRequest(path: path, form: form, idempotencyKey: UUID().uuidString)
        let response = try await send(request, endpoint: endpoint)
        do {
            let tape = try JSONTapeDecoder.tape(response.body)
            return try StripeJSON.decoder().decode(Object.self, from: tape, at: JSONTape.root)
        } catch {
            throw .malformedResponse(
                endpoint: endpoint, requestID: response.header("request-id"),
                detail: "not a valid \(Object.objectType): \(StripeJSON.describe(error))", method: .post)
        }
    }

    /// The POST request for `path` with `form` as its body, the pinned version, the key and `idempotencyKey`.
    func makePostRequest(path: String, form: [(String, String)], idempotencyKey: String) -> HTTPRequest {
        var request = makeRequest(path: path, query: [])
        request.method = .post
        request.body = Data(Self.formEncode(form).utf8)
        request.headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        request.headers.append(("Idempotency-Key", idempotencyKey))
        return request
    }

    /// `name=value&…`, each percent-encoded (`parameters[columns][]` → `parameters%5Bcolumns%5D%5B%5D`).
    static func formEncode(_ form: [(String, String)]) -> String {
        form.map { "\(percentEncode($0.0))=\(percentEncode($0.1))" }.joined(separator: "&")
    }

    // MARK: - Downloads

    /// The body at `url`, a URL a response named (a report's `result.url`), fetched with the key and retried like a
    /// GET; `endpoint` names it for the budget and in errors.
    ///
    /// ``DownloadHostRule`` is applied first: when `url` is not on the configured API base (or, for a live key,
    /// `https://files.stripe.com`), nothing is sent and ``StripeClientError/keyWithheld(host:endpoint:)`` is thrown.
    public func download(url: URL, endpoint: String) async throws(StripeClientError) -> HTTPResponse {
        let rule = DownloadHostRule(baseURL: configuration.baseURL, mode: configuration.key.mode)
        if let host = rule.refusal(for: url) {
            throw .keyWithheld(host: host, endpoint: Self.withoutQuery(url))
        }
        let request = HTTPRequest(
            url: url,
            headers: [
                ("Authorization", configuration.key.authorizationHeaderValue),
                ("Stripe-Version", configuration.stripeVersion),
                ("Accept", "text/csv, */*"),
            ])
        return try await send(request, endpoint: endpoint)
    }

    /// `scheme://host[:port]/path` of `url`, for messages (a query may carry anything).
    static func withoutQuery(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return String(url.absoluteString.prefix(100))
        }
        parts.query = nil
        parts.fragment = nil
        parts.user = nil
        parts.password = nil
        return String((parts.string ?? url.absoluteString).prefix(200))
    }
}
